package explore

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/framework"
)

// Explore never sends a write it cannot undo on this target (a normal
// run's promise). Most of what a case writes goes away with a DELETE of
// the run's page or a restore of the settings; two things may not:
//
//   - a page under a parent (a case that sends parent, which names a page
//     no one has): the previous release accepts it, and its DELETE of
//     parent/child acts on the parent, so the child stays for good. Such a
//     case is sent only once the target has shown that it removes a child
//     page (framework.ChildPagesBlocked: no trait of the previous release
//     in reads, and a DELETE of a child key that no page has left a run
//     page in place), and never again once a child page outlived its
//     DELETE;
//   - a customFields value that names a field: a custom field, once added,
//     stays on every page, and no request of the API removes it. Such a
//     case is never sent.
//
// A case skipped for either is counted, with the reason, and reported.

// customFieldsSkip is why a settings case naming a custom field is never
// sent.
const customFieldsSkip = "a customFields value that names a field: a custom field, once added, stays on every page of the site, and no request of the API removes it"

// cannotUndo says why c must not be sent to this target ("" when it may).
func (s *session) cannotUndo(ctx context.Context, c gen.Case) string {
	if !s.fx.CanWrite() {
		return "" // nothing a read-only run sends can change the site
	}
	for _, f := range c.Fields {
		switch {
		case f.Name == "customFields" && f.Class == gen.ClassNewName:
			return customFieldsSkip
		case f.Name == "parent":
			if why := s.childPagesBlocked(ctx); why != "" {
				return "a page under a parent (field parent): " + why
			}
		}
	}
	return ""
}

// childPagesBlocked says why this target must not get child pages ("" when
// it may): the fixture's decision (made once, with a proof that leaves
// nothing), or a child page of this exploration that outlived its DELETE.
func (s *session) childPagesBlocked(ctx context.Context) string {
	if s.childLeft != "" {
		return s.childLeft
	}
	cctx, cleanup := framework.CollectingCleanups(ctx)
	why := s.fx.ChildPagesBlocked(cctx)
	cleanup(ctx)
	return why
}

// noteChildLeft blocks every later child page once a page under a parent
// is still there after its DELETE (the ledger says so).
func (s *session) noteChildLeft() {
	if s.childLeft != "" {
		return
	}
	for _, p := range s.fx.Ledger.Problems() {
		if strings.Contains(p, "still readable after its DELETE") {
			s.childLeft = "a page under a parent outlived its DELETE earlier in this exploration (" + p + ")"
		}
	}
}

// skip counts a case not sent, and why.
func (s *session) skip(c gen.Case, why string) {
	if s.skipped == nil {
		s.skipped, s.skippedCells = map[string]int{}, map[gen.Cell]bool{}
	}
	s.skipped[string(c.Kind)+" cases, not sent: "+why]++
	for _, cell := range c.Cells() {
		s.skippedCells[cell] = true
	}
}

// skippedLines says which cases were not sent, and why.
func (s *session) skippedLines() []string {
	var out []string
	for why, n := range s.skipped {
		out = append(out, fmt.Sprintf("%d %s", n, why))
	}
	sort.Strings(out)
	return out
}

// aboutPage reads a problem of the framework's about one page (a delete
// that failed, a page still readable after its DELETE): the key and the
// rest.
var aboutPage = regexp.MustCompile(`^(?:could not delete page|page) (\S+?):? (.*)$`)

// leftovers are what the exploration left on the target: the pages, by
// key, each with why it is still there, and the other problems, as
// sentences; and the command that removes the pages ("" when no page was
// left).
func (s *session) leftovers() (sentences, pages []string, command string) {
	l := s.fx.Ledger
	why := map[string]string{}
	for _, p := range l.Pages() {
		pages = append(pages, p)
		why[p] = "its delete did not succeed"
	}
	var others []string
	for _, p := range append(l.Problems(), s.notes...) {
		m := aboutPage.FindStringSubmatch(p)
		if m == nil {
			others = append(others, sentence(p))
			continue
		}
		if _, seen := why[m[1]]; !seen {
			pages = append(pages, m[1])
		}
		why[m[1]] = strings.TrimSuffix(m[2], ".")
		if strings.HasPrefix(why[m[1]], "HTTP ") {
			why[m[1]] = "its DELETE answered " + why[m[1]]
		}
		if strings.Contains(p, "still readable after its DELETE") {
			why[m[1]] = "it " + why[m[1]] + "; the API of this target may not remove it at all (its DELETE of parent/child acts on " +
				"the parent): delete it in the site's admin panel"
		}
	}
	for _, p := range pages {
		sentences = append(sentences, fmt.Sprintf("Page %s, which this exploration created, is still on the target: %s.", p, why[p]))
	}
	sentences = append(sentences, others...)
	if len(pages) == 0 {
		return sentences, nil, ""
	}
	return sentences, pages, "conformance cleanup --base-url " + s.c.BaseURL()
}

// sentence makes a problem of the ledger a sentence: capitalised, ending
// with a full stop.
func sentence(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return p
	}
	p = strings.ToUpper(p[:1]) + p[1:]
	if !strings.HasSuffix(p, ".") {
		p += "."
	}
	return p
}

// leftVerdict is what the verdict says of the pages left.
func leftVerdict(pages []string, command string) string {
	named := pages
	if len(named) > 5 {
		named = named[:5]
	}
	more := ""
	if len(pages) > len(named) {
		more = fmt.Sprintf(" and %d more", len(pages)-len(named))
	}
	return fmt.Sprintf(" It left %d page(s) on the target: %s%s. %s", len(pages), strings.Join(named, ", "), more, cleanupAdvice(command))
}

// cleanupAdvice is what to do about pages left: the command, and that it
// deletes only run-marked pages.
func cleanupAdvice(command string) string {
	return "Remove the pages this run left with `" + command + "` and the run's tokens (--token and --auth-token, " +
		"or their CONFORMANCE_* variables): it deletes only pages whose key carries a run marker; --dry-run lists them first."
}
