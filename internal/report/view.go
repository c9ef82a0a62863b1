package report

import (
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// view is what the HTML and Markdown reports show, computed once so both
// formats say the same thing.
type view struct {
	Run         *Run
	Outcome     string // pass, fail, incomplete: the colour of the verdict
	Date        string
	Mode        string
	Filters     []string
	Areas       []areaView
	Failures    []failureView
	NotChecked  []reasonGroup
	NotTestable []RuleResult
	LeftBehind  []string
}

type areaView struct {
	Name   string
	Counts Counts
	Rules  []RuleResult
}

type failureView struct {
	Rule  RuleResult
	Cases []caseView
}

// caseView is one failing spec of a rule, its message split into what was
// expected and the exchanges that show it.
type caseView struct {
	Name        string
	Status      Status
	Location    string
	Expectation string
	// ExpectationHead is what the HTML report shows at once; the rest of
	// a long expectation (a list of schema violations) folds away.
	ExpectationHead, ExpectationRest string
	Exchanges                        []string
	Curl                             []string
	// Requests is every exchange the spec made, when it made more than
	// the message shows.
	Requests      string
	RequestsCount int
	// Paths are the response fields the failed expectations found wrong
	// (their facts), which the HTML report marks in the bodies.
	Paths []string
	// Bodies are the spec's exchanges as data, which tell the HTML report
	// where each body shown ends (Exchange.Cut).
	Bodies []verdict.Exchange
}

type reasonGroup struct {
	Reason string
	Rules  []RuleResult
}

func newView(r *Run) view {
	v := view{Run: r, Outcome: outcome(r), Date: r.Meta.Date(), Mode: r.Meta.ModeText(), Filters: r.Meta.Filters()}
	byArea := map[string]int{}
	byReason := map[string]int{}
	for _, rr := range r.Rules {
		i, ok := byArea[rr.Area]
		if !ok {
			i = len(v.Areas)
			byArea[rr.Area] = i
			v.Areas = append(v.Areas, areaView{Name: rr.Area})
		}
		a := &v.Areas[i]
		a.Rules = append(a.Rules, rr)
		a.Counts.add(rr.Status)
		switch rr.Status {
		case Failed, Errored:
			v.Failures = append(v.Failures, failureView{Rule: rr, Cases: r.cases(rr)})
		case NotChecked:
			reason := rr.Reason
			if reason == "" {
				reason = "no spec could check it"
			}
			j, ok := byReason[reason]
			if !ok {
				j = len(v.NotChecked)
				byReason[reason] = j
				v.NotChecked = append(v.NotChecked, reasonGroup{Reason: reason})
			}
			v.NotChecked[j].Rules = append(v.NotChecked[j].Rules, rr)
		case NotTestable:
			v.NotTestable = append(v.NotTestable, rr)
		}
	}
	v.LeftBehind = r.Cleanup.lines()
	return v
}

func outcome(r *Run) string {
	switch {
	case r.Counts.Failed > 0:
		return "fail"
	case r.Failed() || r.Counts.Passed == 0:
		return "incomplete"
	}
	return "pass"
}

func (c *Counts) add(s Status) {
	switch s {
	case Passed:
		c.Passed++
	case Failed:
		c.Failed++
	case NotChecked:
		c.NotChecked++
	case NotTestable:
		c.NotTestable++
	case Errored:
		c.Errored++
	}
}

func (r *Run) cases(rr RuleResult) []caseView {
	var out []caseView
	for _, i := range rr.Specs {
		if i < 0 || i >= len(r.Specs) {
			continue
		}
		s := r.Specs[i]
		if s.Status != Failed && s.Status != Errored {
			continue
		}
		// The rule's ID and text are the heading above: the case is named
		// by the rest (its section and what it varies).
		name := strings.Join(strings.Fields(strings.Replace(s.Name, "["+rr.ID+"] "+rr.Text, "", 1)), " ")
		if name == "" {
			name = s.Name
		}
		c := caseView{Name: name, Status: s.Status, Location: s.Location}
		if strings.HasPrefix(c.Location, ":") { // Ginkgo's rendering of no location
			c.Location = ""
		}
		c.Expectation, c.Exchanges = readableMessage(s)
		c.ExpectationHead, c.ExpectationRest = headLines(c.Expectation, expectationLines)
		// The curl line is shown once, under "Reproduce", not in its exchange.
		for i, ex := range c.Exchanges {
			c.Curl = append(c.Curl, curlLines(ex)...)
			c.Exchanges[i] = withoutCurl(ex, curlLines(ex)...)
		}
		if len(c.Curl) == 0 {
			c.Curl = curlLines(s.Requests)
		}
		if n := requestCount(s); n > len(c.Exchanges) || len(c.Exchanges) == 0 {
			c.Requests, c.RequestsCount = strings.TrimRight(withoutCurl(s.Requests, c.Curl...), "\n"), n
		}
		c.Paths, c.Bodies = factPaths(s.Facts), s.Exchanges
		out = append(out, c)
	}
	return out
}

// requestCount is how many requests a spec's request log holds: its
// exchanges as data or, in a report without them, its "#seq" lines.
func requestCount(s SpecResult) int {
	if len(s.Exchanges) > 0 || s.Requests == "" {
		return len(s.Exchanges)
	}
	n := 0
	for _, l := range strings.Split(s.Requests, "\n") {
		if seq, ok := strings.CutPrefix(l, "#"); ok && seq != "" && strings.Trim(seq, "0123456789") == "" {
			n++
		}
	}
	return n
}

// factPaths are the JSON paths a spec's failed expectations found wrong.
func factPaths(facts []verdict.Fact) []string {
	var paths []string
	for _, f := range facts {
		if f.Field != "" {
			paths = append(paths, f.Field)
		}
	}
	return verdict.Uniq(paths)
}

// expectationLines of a failure are shown before the rest folds away.
const expectationLines = 14

// headLines splits s after n lines; rest is empty when s is short enough
// (a fold hiding one or two lines helps nobody).
func headLines(s string, n int) (head, rest string) {
	lines := strings.Split(s, "\n")
	if len(lines) <= n+2 {
		return s, ""
	}
	return strings.Join(lines[:n], "\n"), strings.Join(lines[n:], "\n")
}

// exchangeLine tells whether a line continues an exchange as
// client.Exchange.String renders it: indented lines, or one of its labels.
func exchangeLine(l string) bool {
	if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
		return true
	}
	for _, p := range []string{"response:", "error:", "retried:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// splitMessage separates a failure message into the expectation (what the
// matcher or Gomega said) and the exchanges printed with it. An exchange
// starts at a "request:" line and ends with its "reproduce:" line; Gomega
// may print it before the expectation (as a description) or after.
func splitMessage(msg string) (string, []string) {
	var text, ex []string
	var exchanges []string
	in := false
	flush := func() {
		if len(ex) > 0 {
			exchanges = append(exchanges, strings.TrimRight(strings.Join(ex, "\n"), "\n "))
		}
		ex, in = nil, false
	}
	for _, l := range strings.Split(msg, "\n") {
		switch {
		case strings.HasPrefix(l, "request:"):
			flush()
			in = true
			ex = append(ex, l)
		case in && strings.HasPrefix(l, "reproduce:"):
			ex = append(ex, l)
			flush()
		case in && exchangeLine(l):
			ex = append(ex, l)
		default:
			if in {
				flush()
			}
			text = append(text, l)
		}
	}
	flush()
	return collapseBlank(strings.Join(text, "\n")), exchanges
}

// collapseBlank trims a text and keeps at most one blank line in a row.
func collapseBlank(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	out := lines[:0]
	for i, l := range lines {
		if strings.TrimSpace(l) == "" && i > 0 && strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	return strings.Join(out, "\n")
}

// withoutCurl drops the "reproduce:" lines of these curl commands.
func withoutCurl(ex string, curls ...string) string {
	var keep []string
	for _, l := range strings.Split(ex, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "reproduce:"); !ok || !slices.Contains(curls, strings.TrimSpace(c)) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func curlLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "reproduce:"); ok {
			out = append(out, strings.TrimSpace(c))
		}
	}
	return out
}

// Date is when the run started, in UTC.
func (m Meta) Date() string {
	if m.Started.IsZero() {
		return "unknown"
	}
	return m.Started.UTC().Format("2006-01-02 15:04:05 UTC")
}

// ModeText says in words what the run was allowed to do.
func (m Meta) ModeText() string {
	switch m.Mode {
	case "read-only":
		return "read-only: no request that could change the site"
	case "writes":
		return "writes: pages created and deleted again; settings not touched"
	case "writes+settings":
		return "writes and settings writes: pages created and deleted again; settings changed, restored and verified"
	}
	return m.Mode
}

// Filters describes the selection of specs the run made.
func (m Meta) Filters() []string {
	var out []string
	if m.RerunOf != "" {
		out = append(out, "rerun of the rules that failed in "+m.RerunOf)
	}
	if m.LabelFilter != "" {
		out = append(out, "label filter: "+m.LabelFilter)
	}
	for _, f := range m.Focus {
		out = append(out, "focus: "+f)
	}
	for _, s := range m.Skip {
		out = append(out, "skip: "+s)
	}
	if len(out) == 0 {
		out = append(out, "none (every spec of the suite)")
	}
	return out
}

func (c Cleanup) lines() []string {
	var out []string
	for _, p := range c.PagesLeft {
		out = append(out, "page "+p+" could not be deleted (`conformance cleanup` retries)")
	}
	for _, u := range c.Uploads {
		out = append(out, "upload "+u+" (the API cannot delete uploads)")
	}
	for _, u := range c.UploadsUnlisted {
		out = append(out, "upload "+u)
	}
	for _, s := range c.Settings {
		out = append(out, "settings: "+s)
	}
	for _, p := range c.Problems {
		out = append(out, "teardown problem: "+p)
	}
	return out
}
