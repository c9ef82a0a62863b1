package selftest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
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
)

func TestMain(m *testing.M) {
	selftest.MainIfCLI()
	os.Exit(m.Run())
}

// rulesNotChecked are testable rules that the plain demo run (writes and
// settings writes allowed, reference server) may leave "not checked", each
// with the reason. Every other testable rule must pass. Keep it empty: a
// rule listed here is a rule the suite claims and does not prove.
var rulesNotChecked = map[string]string{}

// rulesWithoutMutant are testable rules that no server-side switch of the
// reference server can break, each with the reason. Every other testable
// rule must be broken by at least one non-benign mutant, or the self-test
// cannot show that its specs catch anything. Empty: every testable rule of
// the catalogue has a mutant today.
var rulesWithoutMutant = map[string]string{}

// caughtByPreflight are mutants that make the whole target unusable, so the
// preflight must refuse to check it (exit 3, one sentence) before any spec
// runs, each with the reason why that is the right answer. They count as
// caught when the run ends that way.
var caughtByPreflight = map[reference.Mutant]string{
	reference.APIUnderV1: "GET {base}/api/pages answers 404: this base URL is not the API's root, and checking on " +
		"would judge (and write to) some other service; the preflight is where GEN-URL-SHAPE is enforced",
}

// runTimeout bounds one subprocess run. A full run takes a few seconds;
// the margin covers a loaded 2-core CI machine running two at once.
const runTimeout = 2 * time.Minute

// TestMutantRulesAreInTheCatalogue checks the mutant registry against the
// rule catalogue: every rule a mutant names exists and is testable, benign
// variants name none, and every testable rule has a mutant that breaks it
// (or is in rulesWithoutMutant with a reason).
func TestMutantRulesAreInTheCatalogue(t *testing.T) {
	cat := spec.All()
	broken := map[string][]reference.Mutant{}
	for _, m := range reference.Mutants() {
		if m.Benign {
			if len(m.Rules) > 0 {
				t.Errorf("benign mutant %s names rules %v: a benign variant breaks no rule", m.Name, m.Rules)
			}
			continue
		}
		if len(m.Rules) == 0 {
			t.Errorf("mutant %s breaks no rule: name the rules it breaks, or mark it Benign", m.Name)
		}
		for _, id := range m.Rules {
			r, ok := cat.Lookup(id)
			switch {
			case !ok:
				t.Errorf("mutant %s names rule %q, which the catalogue (internal/spec) does not have", m.Name, id)
			case !r.Testable():
				t.Errorf("mutant %s names rule %s, which the catalogue marks not testable (%s)", m.Name, id, r.NotTestable)
			default:
				broken[id] = append(broken[id], m.Name)
			}
		}
	}
	var without []string
	for _, r := range cat.Rules() {
		if !r.Testable() {
			continue
		}
		_, allowed := rulesWithoutMutant[r.ID]
		switch {
		case len(broken[r.ID]) == 0 && !allowed:
			without = append(without, r.ID)
		case len(broken[r.ID]) > 0 && allowed:
			t.Errorf("rulesWithoutMutant lists %s, but mutants %v break it: remove it from the list", r.ID, broken[r.ID])
		}
	}
	names := map[reference.Mutant]bool{}
	for _, m := range reference.Mutants() {
		names[m.Name] = !m.Benign
	}
	for name, why := range caughtByPreflight {
		if !names[name] || why == "" {
			t.Errorf("caughtByPreflight: %q must be a non-benign mutant of internal/reference, with a reason", name)
		}
	}
	for id, why := range rulesWithoutMutant {
		if r, ok := cat.Lookup(id); !ok || !r.Testable() || why == "" {
			t.Errorf("rulesWithoutMutant: %q must be a testable catalogue rule with a reason", id)
		}
	}
	if len(without) > 0 {
		t.Errorf("%d testable rule(s) have no mutant, so nothing shows their specs can fail; add a mutant to internal/reference or, "+
			"if no server-side switch can break the rule, list it in rulesWithoutMutant with the reason:\n  %s",
			len(without), strings.Join(without, "\n  "))
	}
}

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
	// filter is the --label-filter, "" for a full run.
	filter string
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
	fmt.Fprintf(&b, "exit %d in %s, label filter %s", o.res.Exit, o.res.Elapsed.Round(time.Millisecond), filter)
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
		switch {
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

// plan lists every run of the self-test, full runs first so the slowest
// work starts early and the worker pool ends together.
func plan(t *testing.T, withMutants bool) []job {
	t.Helper()
	cat := spec.All()
	jobs := []job{{name: "reference", kind: plain}}
	for _, m := range reference.Mutants() {
		switch {
		case m.Benign:
			jobs = append(jobs, job{name: string(m.Name), kind: benign, mutant: m})
		case withMutants:
			j, err := planMutant(cat, m)
			if err != nil {
				t.Fatal(err) // TestMutantRulesAreInTheCatalogue says more
			}
			jobs = append(jobs, j)
		}
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].filter == "" && jobs[b].filter != "" })
	return jobs
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// runJob runs one demo subprocess and reads its JSON report.
func runJob(ctx context.Context, dir string, j job) outcome {
	base := filepath.Join(dir, fmt.Sprintf("%d-%s", j.kind, unsafeName.ReplaceAllString(j.name, "_")))
	args := []string{"demo", "--no-color", "--timeout", (runTimeout - 15*time.Second).String(),
		"--json-report", base + ".json", "--junit-report", base + ".xml"}
	if j.kind != plain {
		args = append(args, "--mutant", string(j.mutant.Name))
	}
	if j.filter != "" {
		args = append(args, "--label-filter", j.filter)
	}
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

// TestSelfTest runs the whole suite (the CLI's demo command: reference
// server, writes and settings writes) against the plain reference server,
// each benign variant and each mutant, as subprocesses on a pool of
// 2*runtime.NumCPU() workers (CONFORMANCE_SELFTEST_WORKERS overrides).
// With -short it skips the mutants.
func TestSelfTest(t *testing.T) {
	start := time.Now()
	// Twice as many workers as cores: a run spends most of its time waiting
	// (loopback round trips, the files suite's 1.1 s gap between two
	// uploads), and measured CPU use with one worker per core is ~30%.
	workers := 2 * runtime.NumCPU()
	if w, err := strconv.Atoi(os.Getenv("CONFORMANCE_SELFTEST_WORKERS")); err == nil && w > 0 {
		workers = w
	}
	cat := spec.All()
	jobs := plan(t, !testing.Short())
	dir := t.TempDir()
	outcomes := runAll(t.Context(), dir, jobs, workers)

	// A mutant that survives a filtered run is run once more unfiltered.
	// If that catches it, either its cross-cutting rule showed only on
	// exchanges of other areas (fine), or the filter was unsound: the specs
	// of its rules depend on specs of other areas, a suite bug of its own.
	var reruns []job
	for _, o := range outcomes {
		if o.kind == mutant && o.filter != "" && !o.killed() {
			j := o.job
			j.filter = ""
			reruns = append(reruns, j)
		}
	}
	rerun := map[string]outcome{}
	rerunDir := filepath.Join(dir, "rerun")
	if err := os.MkdirAll(rerunDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, o := range runAll(t.Context(), rerunDir, reruns, workers) {
		rerun[o.name] = o
	}

	var (
		killed, byPreflight, mutants int
		benignFailed, benigns        int
		survivors                    []string
		runTime                      time.Duration
	)
	for _, o := range outcomes {
		runTime += o.res.Elapsed
		switch o.kind {
		case plain:
			t.Run("reference", func(t *testing.T) { checkReference(t, o) })
		case benign:
			benigns++
			t.Run("benign/"+o.name, func(t *testing.T) {
				if !o.passed() {
					benignFailed++
					t.Errorf("benign variant %s (%s) must pass, the spec allows it; the suite failed it:\n%s",
						o.name, o.mutant.Description, o.describe())
				}
			})
		case mutant:
			mutants++
			t.Run("mutant/"+o.name, func(t *testing.T) {
				if _, listed := caughtByPreflight[o.mutant.Name]; listed && !o.stoppedByPreflight() && o.killed() {
					t.Errorf("caughtByPreflight lists %s, but the run got past the preflight and failed %v: remove it from the list",
						o.name, o.hits())
				}
				if o.killed() {
					killed++
					if o.stoppedByPreflight() {
						byPreflight++
					}
					return
				}
				if r, ok := rerun[o.name]; ok && r.killed() && o.judgedPartly(cat) {
					// Expected now and then: the filtered areas' exchanges
					// did not show the cross-cutting break, the full run's did.
					killed++
					t.Logf("mutant %s: caught by the full run (%v failed), not by the run filtered to %q",
						o.name, r.hits(), o.filter)
					return
				}
				survivors = append(survivors, o.name)
				if r, ok := rerun[o.name]; ok && r.killed() {
					t.Errorf("mutant %s (breaks %v) is caught by a full run (rules %v failed) but not by the run "+
						"filtered to its rules' areas: some spec of these rules depends on specs of other areas.\nfiltered run: %s",
						o.name, o.mutant.Rules, r.hits(), o.describe())
					return
				}
				t.Errorf("mutant %s SURVIVED: it breaks %v (%s), but no run failed any of these rules.\n%s",
					o.name, o.mutant.Rules, o.mutant.Description, o.describe())
			})
		}
	}
	elapsed := time.Since(start)
	slowest := slices.Clone(outcomes)
	slices.SortFunc(slowest, func(a, b outcome) int { return int(b.res.Elapsed - a.res.Elapsed) })
	var slow []string
	for _, o := range slowest[:min(5, len(slowest))] {
		slow = append(slow, fmt.Sprintf("%s %s", o.name, o.res.Elapsed.Round(100*time.Millisecond)))
	}
	t.Logf("slowest runs: %s", strings.Join(slow, ", "))
	if !testing.Short() {
		t.Logf("mutation score: killed %d/%d mutants (%d by the preflight, as listed in caughtByPreflight); %d/%d benign variants failed",
			killed, mutants, byPreflight, benignFailed, benigns)
	}
	if len(survivors) > 0 {
		t.Logf("survivors: %s", strings.Join(survivors, ", "))
	}
	full := 0
	for _, j := range jobs {
		if j.filter == "" {
			full++
		}
	}
	t.Logf("self-test: %d runs (%d full, %d label-filtered; +%d reruns) on %d workers in %s wall time (%s of runs added up)",
		len(jobs), full, len(jobs)-full, len(reruns), workers, elapsed.Round(100*time.Millisecond), runTime.Round(100*time.Millisecond))
}

// checkReference judges the run against the plain reference server: it
// must pass, leave nothing behind, and check every testable rule but those
// in rulesNotChecked.
func checkReference(t *testing.T, o outcome) {
	if !o.passed() {
		t.Fatalf("the suite must pass the reference server:\n%s", o.describe())
	}
	run := o.run
	if len(run.SuiteErrors) > 0 {
		t.Errorf("suite errors: %v", run.SuiteErrors)
	}
	if len(run.Cleanup.PagesLeft) > 0 || len(run.Cleanup.Problems) > 0 {
		t.Errorf("the run left pages %v on the reference server (cleanup problems: %v)", run.Cleanup.PagesLeft, run.Cleanup.Problems)
	}
	var notChecked []string
	seen := map[string]bool{}
	for _, r := range run.Rules {
		seen[r.ID] = true
		_, allowed := rulesNotChecked[r.ID]
		switch {
		case r.Status == report.NotTestable:
		case r.Status == report.Passed && allowed:
			t.Errorf("rulesNotChecked lists %s, but the run checked it: remove it from the list", r.ID)
		case r.Status == report.Passed:
		case allowed:
			t.Logf("not checked (allowed: %s): %s: %s", rulesNotChecked[r.ID], r.ID, r.Reason)
		default:
			notChecked = append(notChecked, fmt.Sprintf("%-36s %s: %s", r.ID, r.Status, r.Reason))
		}
	}
	for _, r := range spec.All().Rules() {
		if !seen[r.ID] {
			t.Errorf("the report has no entry for rule %s", r.ID)
		}
	}
	t.Logf("reference run: %d rules passed, %d not checked, %d not testable; %d requests in %s",
		run.Counts.Passed, run.Counts.NotChecked, run.Counts.NotTestable, run.Meta.Requests, o.res.Elapsed.Round(time.Millisecond))
	if len(notChecked) > 0 {
		t.Errorf("%d testable rule(s) are not checked by a full run against the reference server "+
			"(write a spec, or list the rule in rulesNotChecked with the reason):\n  %s",
			len(notChecked), strings.Join(notChecked, "\n  "))
	}
}

// BenchmarkFullRun runs one full demo run (all specs, writes and settings
// writes) per iteration, as a subprocess, and reports the requests it sent.
func BenchmarkFullRun(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "bench.json")
	var requests int
	var suite time.Duration
	for b.Loop() {
		res := selftest.Run(b.Context(), selftest.Cmd{Dir: dir, Timeout: runTimeout,
			Args: []string{"demo", "--no-color", "--json-report", path, "--junit-report", filepath.Join(dir, "bench.xml")}})
		if res.Exit != 0 {
			b.Fatalf("demo exited %d:\n%s\n%s", res.Exit, selftest.Tail(res.Stdout, 25), selftest.Tail(res.Stderr, 10))
		}
		run, err := report.ReadJSONFile(path)
		if err != nil {
			b.Fatal(err)
		}
		requests += run.Meta.Requests
		suite += time.Duration(run.Meta.Duration)
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
	b.ReportMetric(float64(suite.Milliseconds())/float64(b.N), "suite-ms/op")
}
