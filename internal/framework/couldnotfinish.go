package framework

import (
	"net/url"

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

// couldNotFinishCause is why the spec of report could not finish, "" when nothing
// below the API stopped it: the fault of the exchanges its failure named,
// or, when it named none, of any exchange of its evidence. A failure that
// names an exchange the API answered is the API's own, whatever else
// happened.
func couldNotFinishCause(report types.SpecReport, evidence []*client.Exchange) string {
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
		switch {
		case !ex.Sent && ex.Err != nil:
			// Held back by the run (settings writes stopped after one got
			// no answer): not the API's doing either.
			cause = ex.Method + " " + pathOf(ex) + ": not sent: " + client.Cause(ex.Err)
		case ex.Fault() == "":
			return ""
		default:
			cause = faultOf(ex)
		}
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

// couldNotFinish records that the running spec could not finish, and why.
func couldNotFinish(cause string) {
	addEntry(verdict.EntryNotChecked, verdict.NotChecked{Reason: verdict.CouldNotFinishPrefix + cause, CouldNotFinish: true})
}
