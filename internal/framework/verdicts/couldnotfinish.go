package verdicts

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// A spec whose verdict rests on a request the API never answered (the
// network lost the request or its answer, or the server in front answered
// 502, 503, 504 or 429 in its own words: client.Exchange.Fault) says
// nothing about the API's rules: it could not finish. A failure that names
// an exchange (its fact's Seq) is judged by that exchange; one that names
// none (a plain assertion on what a read gave) by the spec's evidence.

// CouldNotFinishCause is why the spec of report could not finish, "" when
// nothing below the API stopped it: the fault of the exchanges its failure
// named, or, when it named none, of any exchange of its evidence. A
// failure that names an exchange the API answered is the API's own,
// whatever else happened.
func CouldNotFinishCause(report *types.SpecReport, evidence []*client.Exchange) string {
	bySeq := map[int]*client.Exchange{}
	for _, ex := range evidence {
		bySeq[ex.Seq] = ex
	}
	cause, named := "", false
	for _, e := range report.ReportEntries {
		if e.Name != verdict.EntryFact {
			continue
		}
		f, ok := e.Value.GetRawValue().(verdict.Fact)
		ex := bySeq[f.Seq]
		if !ok || f.Seq == 0 || ex == nil {
			continue
		}
		named = true
		if ex.Fault() == "" {
			return ""
		}
		cause = faultOf(ex)
	}
	if named {
		return cause
	}
	for _, ex := range evidence {
		if ex.Fault() != "" {
			return faultOf(ex)
		}
	}
	return ""
}

// faultOf names the request of a faulted exchange with its fault, without
// the query (tokens go there).
func faultOf(ex *client.Exchange) string { return ex.Method + " " + pathOf(ex) + ": " + ex.Fault() }

// pathOf is the escaped path of ex's URL, without its query.
func pathOf(ex *client.Exchange) string {
	if u, err := url.Parse(ex.URL); err == nil {
		return u.EscapedPath()
	}
	return ex.URL
}

// CouldNotFinish records that the running spec could not finish, and why.
func CouldNotFinish(cause string) {
	AddEntry(verdict.EntryNotChecked, verdict.NotChecked{Reason: verdict.CouldNotFinishPrefix + cause, CouldNotFinish: true})
}

// A write whose answer never came may have landed (fateUnknown): what it
// touched is in a state the run cannot know, so a later answer about it
// (a 404 for a page an edit without an answer may have renamed, a list
// missing a page a lost create may have made) judges nothing either.

// TaintedBy is why a failed spec whose failure named only answered
// exchanges could not finish all the same: an exchange of its evidence
// reads or writes what an earlier write of the run, whose answer never
// came (unknown: the writes of unknown fate), may have changed; "" when
// none does.
func TaintedBy(unknown, evidence []*client.Exchange) string {
	for _, ex := range evidence {
		for _, w := range unknown {
			if w.Seq < ex.Seq && touches(resourceOf(w), resourceOf(ex)) {
				return fmt.Sprintf("%s %s found what an earlier write may have changed: %s got no answer and may have landed",
					ex.Method, pathOf(ex), w.Method+" "+pathOf(w))
			}
		}
	}
	return ""
}

// resourceOf names what an exchange reads or writes: "settings", one
// page ("page:<key>", its files included), the pages as a whole ("pages":
// the page list, tags, categories, and a create whose key is not known
// yet), or "" for the rest.
func resourceOf(ex *client.Exchange) string {
	path := pathOf(ex)
	i := strings.Index(path, "/api/")
	if i < 0 {
		return ""
	}
	endpoint, key, _ := strings.Cut(path[i+len("/api/"):], "/")
	switch {
	case endpoint == "settings":
		return "settings"
	case (endpoint == "pages" || endpoint == "files") && key != "":
		if k, err := url.PathUnescape(key); err == nil {
			key = k
		}
		return "page:" + key
	case endpoint == "pages" || endpoint == "tags" || endpoint == "categories" || endpoint == "images":
		return "pages"
	}
	return ""
}

// touches reports whether a write to resource w may change what a read
// (or write) of resource r finds.
func touches(w, r string) bool {
	switch {
	case w == "" || r == "":
		return false
	case w == r, w == "pages" && strings.HasPrefix(r, "page:"), r == "pages" && strings.HasPrefix(w, "page:"):
		return true
	}
	// A parent's write moves its children; a child's create needs its parent.
	return strings.HasPrefix(r, w+"/") || strings.HasPrefix(w, r+"/")
}
