package writes

import (
	"net/http"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// needDeleteTook names the views read after the delete v as the spec's
// evidence, and makes the spec not checked unless the delete took: its
// answer a success, or the page read beside the views gone (404).
func (s *suite) needDeleteTook(v *seen) {
	if v == nil {
		verdicts.NotChecked("the page this check needs was not deleted (see PAGE-DELETE-OK)")
	}
	s.t.Judged(v.exchanges()...)
	deleted := v.answer.Err == nil && v.answer.Status >= 200 && v.answer.Status < 300
	gone := v.page != nil && v.page.Err == nil && v.page.Status == http.StatusNotFound
	if !deleted && !gone {
		verdicts.NotChecked("the delete did not take (%s), and the page read beside the views is not gone (%s): "+
			"PAGE-DELETE-OK and the other case of PAGE-DELETE-GONE judge that", match.Outcome(v.answer), match.Outcome(v.page))
	}
}

// judgeGoneAtEnd: PAGE-DELETE-GONE's case at the run's end: the listing of
// every page that the run reads as it ends, after its last write (the
// listing its sweep looks for the run's pages in, read once for both),
// does not list the page the static chain deleted. The listing read right
// after the delete is read in part on a big site (listed.go): this one,
// read whole, is where the page is shown gone from the page list.
func (s *suite) judgeGoneAtEnd(ctx SpecContext) {
	v := s.deletion
	s.needDeleteTook(v)
	if !s.t.HasRunMarker(v.old) {
		verdicts.NotChecked("the deleted page's key %s does not carry the run's marker, the keys the listing at the run's end keeps", v.old)
	}
	ex, keys, listed := s.t.RunPagesAtEnd(ctx)
	if why := pagelist.Unread(ex); why != "" {
		verdicts.NotChecked("the listing of every page at the run's end: %s", why)
	}
	if !listed {
		verdicts.NotChecked("the listing of every page at the run's end gave no page list (%s)", match.Outcome(ex))
	}
	check := s.t.NewCheck()
	check.Exercised(cellsOfTypes(pagelist.PageTypes())...)
	if slices.Contains(keys, v.old) {
		check.Problem(ex, "the listing of every page, read as the run ends, still lists page %s, which DELETE %s removed earlier "+
			"in the run", v.old, pagelist.PagePath(v.old))
	}
	check.Expect("a deleted page is gone from the page list, also when the run ends (3.3)")
}

// judgeMissingAtEnd: PAGE-REFUSED-WRITE-NO-EFFECT's case at the run's end:
// the listing of every page the run reads as it ends does not list the
// key of the refused edit of a key no page has (no page is there: the
// read of the key right after the edit judged the page view).
func (s *suite) judgeMissingAtEnd(ctx SpecContext) {
	m := s.missing
	if m == nil {
		verdicts.NotChecked("the edit of a key no page has was not sent")
	}
	s.t.Judged(m.ex, m.after)
	needRefusal(m.ex, m.ex.RequestLine())
	ex, keys, listed := s.t.RunPagesAtEnd(ctx)
	if why := pagelist.Unread(ex); why != "" {
		verdicts.NotChecked("the listing of every page at the run's end: %s", why)
	}
	if !listed {
		verdicts.NotChecked("the listing of every page at the run's end gave no page list (%s)", match.Outcome(ex))
	}
	s.markKind(coverage.WriteRefused404, coverage.ViewList)
	Expect(keys).NotTo(ContainElement(m.key), match.Evidence(ex, "the listing of every page, read as the run ends, lists %s, "+
		"the key of the refused %s", m.key, m.ex.RequestLine()))
}
