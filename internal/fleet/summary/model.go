// Package summary is a fleet's summary: one line per site (its outcome,
// its exit code, each rule's verdict, where its reports are) and, over
// all sites, the counts and each rule's tally: sites × rules. It writes the
// summary as JSON (the input of `conformance merge`), JUnit XML (one test
// suite per site), a self-contained HTML page (one row per site, linking
// to each site's own report) and a console summary, and merges the JSON
// summaries of a fleet's shards into the summary one run would have made.
//
// The sites' lines go to a spool file as each site finishes (Collector):
// what the summary keeps in memory grows with the rules, not the sites.
package summary

import (
	"fmt"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Kind is the JSON summary's kind field: what tells it from a site's report.
const Kind = "conformance-fleet"

// FormatVersion is the version of the JSON summary's format.
const FormatVersion = 1

// Outcome is what became of one site.
type Outcome string

// The outcomes, each with the exit code it stands for (Exit).
const (
	Passed          Outcome = "passed"            // 0: every rule checked passed
	Failed          Outcome = "failed"            // 1: a rule failed
	Incomplete      Outcome = "incomplete"        // 1: the run did not complete, or nothing was checked
	CouldNotFinish  Outcome = "could-not-finish"  // 4: requests got no answer; run again
	CannotBeChecked Outcome = "cannot-be-checked" // 3: unreachable, not the API, token refused, or the site lost data
	UsageError      Outcome = "usage-error"       // 2: the site's configuration
	Crashed         Outcome = "crashed"           // 1: the site's process ended without a verdict
	NotRun          Outcome = "not-run"           // 1: the fleet was stopped before the site started
)

// Exit is the exit code the outcome stands for: a site's own code, and
// 1 (the run did not complete) for a site that crashed or never ran.
func (o Outcome) Exit() int {
	switch o {
	case Passed:
		return runner.ExitPass
	case CouldNotFinish:
		return runner.ExitCouldNotFinish
	case CannotBeChecked:
		return runner.ExitUnusable
	case UsageError:
		return runner.ExitUsage
	}
	return runner.ExitFail
}

// severity orders the exit codes for Worst: a site that cannot be checked
// or lost data (3) first, then a configuration the suite could not run a
// site with (2), a rule failed or a run that did not complete (1), rules
// that could not finish (4, run again), and a pass (0).
var severity = map[int]int{
	runner.ExitPass:           0,
	runner.ExitCouldNotFinish: 1,
	runner.ExitFail:           2,
	runner.ExitUsage:          3,
	runner.ExitUnusable:       4,
}

// Worst is the worst of exit codes by severity (3, 2, 1, 4, 0): the
// fleet's exit code is the worst of its sites'. A code the suite does not
// use counts as 1.
func Worst(codes ...int) int {
	worst := runner.ExitPass
	for _, c := range codes {
		if _, known := severity[c]; !known {
			c = runner.ExitFail
		}
		if severity[c] > severity[worst] {
			worst = c
		}
	}
	return worst
}

// Words is the outcome as the console and the HTML page say it.
func (o Outcome) Words() string {
	switch o {
	case Passed:
		return "PASS"
	case Failed:
		return "FAIL"
	case Incomplete:
		return "INCOMPLETE"
	case CouldNotFinish:
		return "COULD NOT FINISH"
	case CannotBeChecked:
		return "CANNOT BE CHECKED"
	case UsageError:
		return "USAGE ERROR"
	case Crashed:
		return "CRASHED"
	case NotRun:
		return "NOT RUN"
	}
	return strings.ToUpper(string(o))
}

// Site is one site's line of the summary.
type Site struct {
	Index    int             `json:"index"` // position in the targets file, from 0
	Name     string          `json:"name"`
	BaseURL  string          `json:"baseUrl"` // a password in it shown as xxxxx
	Mode     string          `json:"mode"`
	Outcome  Outcome         `json:"outcome"`
	Exit     int             `json:"exit"` // the site's process's exit code; -1: ended by a signal
	Verdict  string          `json:"verdict"`
	Started  time.Time       `json:"started"`
	Duration report.Duration `json:"duration"`
	Requests int             `json:"requests"`
	Counts   report.Counts   `json:"counts"`
	// Rules is each rule's verdict on the site (none when the site's run
	// made no report).
	Rules map[string]report.Status `json:"rules,omitempty"`
	// Failures says in one line why each failed or errored rule did.
	Failures map[string]string `json:"failures,omitempty"`
	Reports  Reports           `json:"reports"`
}

// Reports are the site's report files, relative to the summary's folder.
type Reports struct {
	JSON     string `json:"json,omitempty"`
	HTML     string `json:"html,omitempty"`
	JUnit    string `json:"junit,omitempty"`
	Markdown string `json:"markdown,omitempty"`
	HAR      string `json:"har,omitempty"`
	Console  string `json:"console,omitempty"` // what the site's run printed
}

// each visits the site's report paths, for rewriting them.
func (r *Reports) each(f func(*string)) {
	for _, p := range []*string{&r.JSON, &r.HTML, &r.JUnit, &r.Markdown, &r.HAR, &r.Console} {
		if *p != "" {
			f(p)
		}
	}
}

// Fleet is the summary's head: everything but the sites' lines.
type Fleet struct {
	FormatVersion int             `json:"formatVersion"`
	Kind          string          `json:"kind"`
	SuiteVersion  string          `json:"suiteVersion"`
	Targets       Targets         `json:"targets"`
	Shards        *Shards         `json:"shards,omitempty"`
	Started       time.Time       `json:"started"`
	Duration      report.Duration `json:"duration"`
	Exit          int             `json:"exit"`
	Verdict       string          `json:"verdict"`
	Counts        Counts          `json:"counts"`
	Rules         []Rule          `json:"rules"`
}

// Targets says which targets file the fleet came from.
type Targets struct {
	File   string `json:"file"`
	Digest string `json:"digest"`
	Sites  int    `json:"sites"` // sites in the whole file, every shard's
}

// Shards says which shards of the targets the summary holds.
type Shards struct {
	Total   int   `json:"total"`
	Present []int `json:"present"`
}

// Missing lists the shards the summary lacks.
func (s *Shards) Missing() []int {
	if s == nil {
		return nil
	}
	var out []int
	for i := range s.Total {
		found := false
		for _, p := range s.Present {
			found = found || p == i
		}
		if !found {
			out = append(out, i)
		}
	}
	return out
}

// Counts are the sites by outcome.
type Counts struct {
	Sites           int `json:"sites"`
	Passed          int `json:"passed"`
	Failed          int `json:"failed"`
	Incomplete      int `json:"incomplete"`
	CouldNotFinish  int `json:"couldNotFinish"`
	CannotBeChecked int `json:"cannotBeChecked"`
	UsageError      int `json:"usageError"`
	Crashed         int `json:"crashed"`
	NotRun          int `json:"notRun"`
}

func (c *Counts) add(o Outcome) {
	c.Sites++
	switch o {
	case Passed:
		c.Passed++
	case Failed:
		c.Failed++
	case Incomplete:
		c.Incomplete++
	case CouldNotFinish:
		c.CouldNotFinish++
	case CannotBeChecked:
		c.CannotBeChecked++
	case UsageError:
		c.UsageError++
	case Crashed:
		c.Crashed++
	default:
		c.NotRun++
	}
}

// Rule is one rule across the sites: how many sites gave it each verdict,
// and the first sites (in the targets file's order) it failed on.
type Rule struct {
	ID          string   `json:"id"`
	Section     string   `json:"section"`
	Level       string   `json:"level"`
	Area        string   `json:"area"`
	Text        string   `json:"text"`
	Passed      int      `json:"passed"`
	Failed      int      `json:"failed"`
	NotChecked  int      `json:"notChecked"`
	NotTestable int      `json:"notTestable"`
	Errored     int      `json:"error"`
	FailedOn    []string `json:"failedOn,omitempty"`
	// failedAt are the targets-file indexes of FailedOn, to keep the
	// first ones whatever order the sites finish in.
	failedAt []int
}

// maxNamed bounds the sites a rule names as failing it.
const maxNamed = 10

// Catalogue is the suite's rules as a summary lists them, untallied.
func Catalogue() []Rule {
	var out []Rule
	for _, r := range spec.All().Rules() {
		out = append(out, Rule{ID: r.ID, Section: r.Section, Level: string(r.Level), Area: string(r.Area), Text: r.Text})
	}
	return out
}

// tally counts one site's verdict on the rule.
func (r *Rule) tally(s Site, st report.Status) {
	switch st {
	case report.Passed:
		r.Passed++
	case report.Failed:
		r.Failed++
		r.noteFailure(s)
	case report.NotTestable:
		r.NotTestable++
	case report.Errored:
		r.Errored++
	default:
		r.NotChecked++
	}
}

// noteFailure keeps the site among FailedOn if it is one of the first
// maxNamed by the targets file's order.
func (r *Rule) noteFailure(s Site) {
	at := len(r.failedAt)
	for at > 0 && r.failedAt[at-1] > s.Index {
		at--
	}
	if at >= maxNamed {
		return
	}
	r.failedAt = append(r.failedAt[:at], append([]int{s.Index}, r.failedAt[at:]...)...)
	r.FailedOn = append(r.FailedOn[:at], append([]string{s.Name}, r.FailedOn[at:]...)...)
	if len(r.failedAt) > maxNamed {
		r.failedAt, r.FailedOn = r.failedAt[:maxNamed], r.FailedOn[:maxNamed]
	}
}

// verdict is the fleet's sentence, from its counts and exit code.
func (f *Fleet) verdict() string {
	c := f.Counts
	missing := f.Targets.Sites - c.Sites
	if f.Shards == nil || len(f.Shards.Missing()) == 0 {
		missing = 0
	}
	if c.Sites == 0 && missing == 0 {
		return "NOTHING CHECKED: no site in this shard of the targets."
	}
	word := "FAIL"
	switch f.Exit {
	case runner.ExitPass:
		return fmt.Sprintf("PASS: every site conforms to every rule checked (%s).", plural(c.Sites, "site"))
	case runner.ExitCouldNotFinish:
		word = "COULD NOT FINISH"
	}
	parts := []string{fmt.Sprintf("%d passed", c.Passed)}
	for _, p := range []struct {
		n    int
		what string
	}{
		{c.Failed, "broke rules"}, {c.CannotBeChecked, "cannot be checked"}, {c.CouldNotFinish, "could not finish"},
		{c.Incomplete, "did not complete"}, {c.UsageError, "had a usage error"}, {c.Crashed, "crashed"}, {c.NotRun, "not run"},
	} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	s := fmt.Sprintf("%s: of %s, %s.", word, plural(c.Sites, "site"), strings.Join(parts, ", "))
	if missing > 0 {
		s += fmt.Sprintf(" %s of the targets not checked: the summaries of shard(s) %s of %d were not given.",
			plural(missing, "site"), joinInts(f.Shards.Missing()), f.Shards.Total)
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
