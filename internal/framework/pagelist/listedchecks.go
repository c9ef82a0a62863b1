package pagelist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Checks of every whole page object of a listing read as a stream: they
// run as each page arrives (the page is gone afterwards), and what they
// find is judged later, with one fact per offending field, as MatchSchema
// gives them on a body read whole, so that reports group failures by
// field the same way.

// PageCheck is a check of every whole page object a listing streams (the
// shape of a page, for instance): it returns the problems of one page,
// none when there are none. Checks are added before the run's first
// request (Reader.Check).
type PageCheck struct {
	Name  string
	Check func(page gjson.Result) []PageProblem
}

// PageProblem is one thing wrong with a page object: the JSON path inside
// it, as schemas writes paths ("tags", "$" for the page itself), and what
// is wrong there.
type PageProblem struct{ Path, Problem string }

// maxProblemsKept bounds the problems a check keeps of one listing (the
// rest are counted): enough to show what is wrong.
const maxProblemsKept = 50

// Reader.Check adds checks run on every whole page object of the
// listing of every type and of the term views read as streams (Reader.ListAll,
// Reader.Read, Reader.ReadStreamed; PassCheckOnListing and PassCheckOnStream
// judge their findings). A check whose name is added already is not added
// again. Add them when the specs are registered, before any request.
func (r *Reader) Check(checks ...PageCheck) {
	r.checks.mu.Lock()
	defer r.checks.mu.Unlock()
	for _, c := range checks {
		if !slices.ContainsFunc(r.checks.list, func(have PageCheck) bool { return have.Name == c.Name }) {
			r.checks.list = append(r.checks.list, c)
		}
	}
}

// pageCheckList is the run's page checks.
type pageCheckList struct {
	mu   sync.Mutex
	list []PageCheck
}

func (l *pageCheckList) get() []PageCheck {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]PageCheck(nil), l.list...)
}

// checkFindings is what one page check found on a listing.
type checkFindings struct {
	items []itemProblem // the first maxProblemsKept
	// more counts the problems past those of the page that filled items;
	// stopped: the check ran on no page after it (its verdict stood, and
	// a broken listing of a million pages would cost a million checks).
	more    int
	stopped bool
}

// itemProblem is a problem of the page at index of the listing.
type itemProblem struct {
	index int
	key   string
	PageProblem
}

// add keeps the problems of the page at index (called only while the
// check runs: !done(); pageFold.Item sets stopped past that).
func (f *checkFindings) add(index int, page gjson.Result, problems []PageProblem) {
	for _, p := range problems {
		if len(f.items) >= maxProblemsKept {
			f.more++
			continue
		}
		f.items = append(f.items, itemProblem{index: index, key: match.Show(page.Get("key")), PageProblem: p})
	}
}

// Problems returns what the page check named found on the listing's pages
// ("page <key>: <path>: <problem>", at most maxProblemsKept) and how many
// more there were; checked is false when the check did not run on it.
func (l Listing) Problems(check string) (problems []string, more int, checked bool) {
	f, ok := l.found[check]
	if !ok {
		return nil, 0, false
	}
	for _, p := range f.items {
		where := ""
		if p.Path != "$" && p.Path != "" {
			where = p.Path + ": "
		}
		problems = append(problems, "page "+p.key+": "+where+p.Problem)
	}
	if f.stopped {
		problems = append(problems, fmt.Sprintf("(the check stopped after %d problems: the later pages were not checked)", maxProblemsKept))
	}
	return problems, f.more, true
}

// done reports that the check runs on no further page (see stopped).
func (f *checkFindings) done() bool { return len(f.items) >= maxProblemsKept }

// PassCheckOnListing expects the page check named to have found nothing
// on the pages of l (matched against l.Ex), each problem a fact on its
// field (data[i].path).
func PassCheckOnListing(l Listing, check, expect string) types.GomegaMatcher {
	return passCheck(expect, check, "data", func(*client.Exchange) (Listing, bool) { return l, true })
}

// PassCheckOnStream expects the page check named to have found nothing on
// the pages at arrayPath of an answer read as a stream (Reader.ReadStreamed,
// Reader.Read), each problem a fact on its field (arrayPath[i].path).
func PassCheckOnStream(check, arrayPath, expect string) types.GomegaMatcher {
	return passCheck(expect, check, arrayPath, func(ex *client.Exchange) (Listing, bool) {
		v, ok := ex.Folded().(*foldedListing)
		if !ok {
			return Listing{}, false
		}
		return Listing{found: v.found}, true
	})
}

func passCheck(expect, check, arrayPath string, listing func(*client.Exchange) (Listing, bool)) types.GomegaMatcher {
	return match.BodyCheck{Expect: expect, Problem: func(ex *client.Exchange) string {
		l, ok := listing(ex)
		problems, more, checked := l.Problems(check)
		switch {
		case !ok || !checked:
			return "the page objects were not checked as they were read (" + check + ")"
		case more > 0:
			problems = append(problems, fmt.Sprintf("and %d more problems", more))
		}
		if len(problems) == 0 {
			return ""
		}
		return "\n  " + strings.Join(problems, "\n  ")
	}, Facts: func(ex *client.Exchange) []verdict.Fact {
		l, _ := listing(ex)
		f := l.found[check]
		if f == nil {
			return nil
		}
		var facts []verdict.Fact
		for _, p := range f.items {
			field := arrayPath + "[" + strconv.Itoa(p.index) + "]"
			if p.Path != "$" && p.Path != "" {
				field += "." + p.Path
			}
			fact := verdicts.FactOf(ex, expect, p.Problem, field)
			match.AddKinds(&fact, p.Problem)
			facts = append(facts, fact)
		}
		return facts
	}}.Matcher()
}
