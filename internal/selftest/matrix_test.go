package selftest_test

// The self-test matrix: the jobs (one CLI run each), how they are planned
// and run, and how their outcomes are judged.

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// runTimeout bounds one subprocess run. A full run takes a few seconds;
// the margin covers a loaded 2-core CI machine running two at once.
const runTimeout = 2 * time.Minute

// kind of a self-test run.
type kind int

const (
	plain  kind = iota // the reference server as is: must pass
	benign             // a variant the spec allows: must pass
	mutant             // breaks rules: must fail one of them
)

// job is one subprocess run of `conformance demo`.
type job struct {
	name   string
	kind   kind
	mutant reference.MutantInfo
	// profile, when set, runs the reference under that profile instead of
	// a mutant (a benign job; mutant then only describes it).
	profile reference.Profile
	// filter is the --label-filter, "" for a full run.
	filter string
	// args are further CLI arguments (--credentials header).
	args []string
	// concurrency is the run's --concurrency: withConcurrency, or 1 for
	// the twin run whose verdicts must be the same (sameVerdicts).
	concurrency int
	// once: the job has no twin at --concurrency 1. A cell mutant's job
	// (cells_test.go) runs only the specs of its cell's rules, once: the
	// named mutants' twins show already that concurrency changes no
	// verdict, and two hundred more runs would double the self-test.
	once bool
}

// withConcurrency is the --concurrency of the self-test's runs: the CLI's
// default, stated so that a change of the default cannot turn the
// concurrency off in the runs that prove the suite (the matrix, the
// leave-no-trace runs, interrupts included).
const withConcurrency = 8

// oneByOne returns jobs each followed by its twin at --concurrency 1: the
// issue's "the same verdicts with and without concurrency". Not under the
// race detector: what it looks for is a data race, which requests side by
// side give and one at a time do not; the plain go test ./... compares the
// verdicts.
func oneByOne(jobs []job) []job {
	var out []job
	for _, j := range jobs {
		out = append(out, j)
		if !j.once && !testkit.RaceEnabled {
			twin := j
			twin.concurrency = 1
			out = append(out, twin)
		}
	}
	return out
}

// outcome is what a job's run produced.
type outcome struct {
	job
	res     selftest.Result
	run     *report.Run // nil when the run wrote no readable JSON report
	readErr error
}

// failedRules lists the IDs of the rules the run reports failed.
func (o outcome) failedRules() []string {
	if o.run == nil {
		return nil
	}
	var ids []string
	for _, r := range o.run.Rules {
		if r.Status == report.Failed {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// hits lists the mutant's rules that the run reports failed.
func (o outcome) hits() []string {
	var hit []string
	for _, id := range o.failedRules() {
		if slices.Contains(o.mutant.Rules, id) {
			hit = append(hit, id)
		}
	}
	return hit
}

// killed: the run exited 1 and failed at least one rule the mutant breaks,
// or the mutant is one the preflight must refuse and it did.
func (o outcome) killed() bool {
	return (o.res.Exit == 1 && len(o.hits()) > 0) || o.stoppedByPreflight()
}

// stoppedByPreflight: a mutant of caughtByPreflight ended the run in the
// preflight.
func (o outcome) stoppedByPreflight() bool {
	_, listed := caughtByPreflight[o.mutant.Name]
	return listed && o.kind == mutant && o.res.Exit == 3 && strings.Contains(o.res.Stdout, "The target cannot be checked: ")
}

// passed: the run exited 0 and failed no rule.
func (o outcome) passed() bool {
	return o.res.Exit == 0 && o.run != nil && o.run.Counts.Failed == 0 && o.run.Counts.Errored == 0
}

// describe says what a run did, for failure messages.
func (o outcome) describe() string {
	var b strings.Builder
	filter := "none (full run)"
	if o.filter != "" {
		filter = fmt.Sprintf("%q", o.filter)
	}
	fmt.Fprintf(&b, "exit %d in %s at --concurrency %d, label filter %s", o.res.Exit, o.res.Elapsed.Round(time.Millisecond), o.concurrency, filter)
	if o.res.TimedOut {
		fmt.Fprintf(&b, ", TIMED OUT after %s", runTimeout)
	}
	if o.res.Err != nil {
		fmt.Fprintf(&b, ", could not run: %v", o.res.Err)
	}
	if o.res.Exit == 3 {
		// The preflight stopped the run: no spec ran, and its sentence
		// says what the suite took the target's answer for.
		for _, line := range strings.Split(o.res.Stdout, "\n") {
			if strings.HasPrefix(line, "The target cannot be checked: ") {
				fmt.Fprintf(&b, "\nthe preflight stopped the run before any spec ran: %s", line)
			}
		}
	}
	if o.run == nil {
		if o.readErr != nil {
			fmt.Fprintf(&b, "\nno JSON report: %v", o.readErr)
		}
		fmt.Fprintf(&b, "\n--- stdout (tail) ---\n%s", selftest.Tail(o.res.Stdout, 25))
		if strings.TrimSpace(o.res.Stderr) != "" {
			fmt.Fprintf(&b, "\n--- stderr (tail) ---\n%s", selftest.Tail(o.res.Stderr, 15))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "\nverdict: %s\nfailed rules: %v", o.run.Verdict, o.failedRules())
	for _, e := range o.run.SuiteErrors {
		fmt.Fprintf(&b, "\nsuite error: %s", e)
	}
	// How each rule the mutant breaks fared, with its specs: the place to
	// start when a mutant survives.
	for _, r := range o.run.Rules {
		if !slices.Contains(o.mutant.Rules, r.ID) {
			continue
		}
		fmt.Fprintf(&b, "\n  %s: %s", r.ID, r.Status)
		if r.Reason != "" {
			fmt.Fprintf(&b, " (%s)", r.Reason)
		}
		for _, i := range r.Specs {
			if i >= 0 && i < len(o.run.Specs) {
				s := o.run.Specs[i]
				fmt.Fprintf(&b, "\n    - %s: %s", s.Status, s.Name)
			}
		}
	}
	if o.kind != mutant {
		for _, s := range o.run.Specs {
			if s.Status == report.Failed || s.Status == report.Errored {
				fmt.Fprintf(&b, "\n  %s: %s\n%s", s.Status, s.Name, indent(s.Message, "      "))
			}
		}
	}
	return b.String()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

// planMutant picks the label filter of a mutant's run. Specs are labelled
// with their rule's area (internal/framework), so filtering on the areas of
// the rules a mutant breaks keeps every spec of those rules. Cross-cutting
// rules are judged on every exchange of the run: a mutant that breaks only
// such rules runs unfiltered; one that also breaks rules of some areas runs
// those areas plus the cross-cutting checks, which then judge the
// exchanges of those areas (if that misses, TestSelfTest reruns it
// unfiltered).
func planMutant(cat *spec.Catalogue, m reference.MutantInfo) (job, error) {
	j := job{name: string(m.Name), kind: mutant, mutant: m}
	areas := map[spec.Area]bool{}
	crossCutting := false
	for _, id := range m.Rules {
		r, ok := cat.Lookup(id)
		_, awaited := rulesAwaitingCatalogue[id]
		switch {
		case !ok && awaited:
			// No spec checks it yet: it adds no area to the filter.
		case !ok:
			return j, fmt.Errorf("mutant %s names unknown rule %q", m.Name, id)
		case r.CrossCutting:
			crossCutting = true
		default:
			areas[r.Area] = true
		}
	}
	var terms []string
	for _, a := range spec.Areas() {
		if areas[a] {
			terms = append(terms, "area:"+string(a))
		}
	}
	if len(terms) > 0 && crossCutting {
		terms = append(terms, framework.LabelCrossCutting)
	}
	j.filter = strings.Join(terms, " || ")
	return j, nil
}

// judgedPartly reports whether a filtered run of the job's mutant left
// out some of its rules' specs on purpose: its cross-cutting rules were
// judged on the filtered areas' exchanges only.
func (j job) judgedPartly(cat *spec.Catalogue) bool {
	for _, id := range j.mutant.Rules {
		if r, ok := cat.Lookup(id); ok && r.CrossCutting {
			return j.filter != ""
		}
	}
	return false
}

// headerCredentialVariants are the benign variants that take the tokens
// in headers: each runs once more with --credentials header.
var headerCredentialVariants = []reference.Mutant{reference.BenignNewerRelease}

// plan lists every run of the self-test, full runs first so the slowest
// work starts early and the worker pool ends together.
func plan(t *testing.T, withMutants bool) []job {
	t.Helper()
	cat := spec.All()
	jobs := []job{{name: "reference", kind: plain}}
	for _, m := range reference.Mutants() {
		switch {
		case m.Hazard:
			// Neither passes nor is caught by a rule: each hazard has
			// tests of its own.
		case m.Benign && !raceSample(m.Name, 2) && !slices.Contains(headerCredentialVariants, m.Name):
			// Under the race detector, half the variants (the credentials
			// in headers always: their requests take paths of their own).
		case m.Benign:
			jobs = append(jobs, job{name: string(m.Name), kind: benign, mutant: m})
			if slices.Contains(headerCredentialVariants, m.Name) {
				jobs = append(jobs, job{name: string(m.Name) + " --credentials header", kind: benign, mutant: m,
					args: []string{"--credentials", "header"}})
			}
		case m.ExploreOnly:
			// Only generated input reveals it: no spec of the normal run
			// sends what it breaks on. internal/explore's tests require
			// conformance explore to catch each of them.
		case withMutants && isCellMutant(m.Name):
			// A cell's mutant runs a few specs: its failure paths are
			// those of the table's mutants.
			if raceSample(m.Name, 16) {
				jobs = append(jobs, planCellMutant(m))
			}
		case withMutants:
			j, err := planMutant(cat, m)
			if err != nil {
				t.Fatal(err) // TestMutantRulesAreInTheCatalogue says more
			}
			if raceSample(m.Name, 4) {
				jobs = append(jobs, j)
			}
		}
	}
	for _, p := range reference.Profiles() {
		jobs = append(jobs, job{name: string(p.Name), kind: benign, profile: p.Name,
			mutant: reference.MutantInfo{Description: "profile: " + p.Description, Benign: true}})
	}
	for i := range jobs {
		jobs[i].concurrency = withConcurrency
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].filter == "" && jobs[b].filter != "" })
	return jobs
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// runJob runs one demo subprocess and reads its JSON report.
func runJob(ctx context.Context, dir string, j job) outcome {
	base := filepath.Join(dir, fmt.Sprintf("%d-%s-c%d", j.kind, unsafeName.ReplaceAllString(j.name, "_"), j.concurrency))
	args := []string{"demo", "--no-color", "--timeout", (runTimeout - 15*time.Second).String(),
		"--concurrency", strconv.Itoa(j.concurrency), "--json-report", base + ".json", "--junit-report", base + ".xml"}
	switch {
	case j.profile != "":
		args = append(args, "--profile", string(j.profile))
	case j.kind != plain:
		args = append(args, "--mutant", string(j.mutant.Name))
	}
	if j.filter != "" {
		args = append(args, "--label-filter", j.filter)
	}
	args = append(args, j.args...)
	o := outcome{job: j, res: selftest.Run(ctx, selftest.Cmd{Args: args, Dir: dir, Timeout: runTimeout})}
	o.run, o.readErr = report.ReadJSONFile(base + ".json")
	return o
}

// runAll runs the jobs on a pool of workers and returns the outcomes in
// job order.
func runAll(ctx context.Context, dir string, jobs []job, workers int) []outcome {
	out := make([]outcome, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = runJob(ctx, dir, jobs[i])
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
