package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/report"
)

// This file shows a run's progress on the console while the specs run,
// per rule, not per spec: on a terminal one live line, rewritten in place,
// with the rules done, the current area and rule, the requests made, the
// time spent and an estimate of the time left; everywhere one line per
// area as its last rule is done (in CI logs, the only progress lines).

// plan is what a run will check: its selected specs and their rules and
// areas, from a preview of the specs (no request is made).
type plan struct {
	specs     map[string]int // specID -> selected specs with that identity
	ruleSpecs map[string]int // rule ID -> selected specs
	ruleArea  map[string]string
	areaRules map[string]int // area -> rules with a selected spec
	specCount int
}

// newPlan reads the plan from a preview of the specs (checkSelection's).
func newPlan(preview types.Report) plan {
	p := emptyPlan()
	for _, sr := range preview.SpecReports {
		if sr.LeafNodeType == types.NodeTypeIt && sr.State == types.SpecStatePassed { // a dry run "passes" what it selects
			p.add(specID(&sr), sr.Labels())
		}
	}
	return p
}

// planOf is the plan of a run that selects every spec: those its tree
// registered (framework.Fixture.Registered), as a preview would list them.
func planOf(specs []framework.RegisteredSpec) plan {
	p := emptyPlan()
	for _, s := range specs {
		p.add(s.FullText+"\x00"+s.Location.String(), s.Labels)
	}
	return p
}

func emptyPlan() plan {
	return plan{specs: map[string]int{}, ruleSpecs: map[string]int{}, ruleArea: map[string]string{}, areaRules: map[string]int{}}
}

// add counts one selected spec in.
func (p *plan) add(id string, labels []string) {
	p.specs[id]++
	p.specCount++
	area, rules := areaAndRules(labels)
	for _, rule := range rules {
		if p.ruleSpecs[rule] == 0 {
			p.ruleArea[rule] = area
			p.areaRules[area]++
		}
		p.ruleSpecs[rule]++
	}
}

// specID tells specs apart across a preview and the run.
func specID(sr *types.SpecReport) string {
	return sr.FullText() + "\x00" + sr.LeafNodeLocation.String()
}

// specLabels are a spec's area and rules, from its labels.
func specLabels(sr *types.SpecReport) (area string, rules []string) { return areaAndRules(sr.Labels()) }

// areaAndRules are the area and rules that labels name.
func areaAndRules(labels []string) (area string, rules []string) {
	for _, l := range labels {
		if id, ok := strings.CutPrefix(l, "rule:"); ok {
			rules = append(rules, id)
		} else if a, ok := strings.CutPrefix(l, "area:"); ok {
			area = a
		}
	}
	return area, rules
}

// progress follows the specs as Ginkgo runs them (ReportBeforeEach and
// ReportAfterEach) and writes to the console. Its lines name areas, rules
// and counts only, so they are written straight to the console, not
// through the redactor, which could hold back a line's last characters.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	live     bool // a terminal: keep a live line at the bottom
	width    int
	started  time.Time
	requests func() int
	plan     plan

	left       map[string]int // specID -> selected specs not run yet
	ruleLeft   map[string]int
	ruleStatus map[string]report.Status
	areaLeft   map[string]int
	specsDone  int
	rulesDone  int
	current    string // area and rule of the spec running
	stopping   string // what the run does once no spec is left to start
	shown      int    // columns the live line takes on screen
}

func newProgress(w io.Writer, live bool, width int, started time.Time, requests func() int, p plan) *progress {
	pr := &progress{w: w, live: live, width: width, started: started, requests: requests, ruleStatus: map[string]report.Status{}}
	pr.setPlan(p)
	return pr
}

// setPlan makes p what is left to run: call it before the first spec.
func (p *progress) setPlan(pl plan) {
	p.plan = pl
	p.left, p.ruleLeft, p.areaLeft = map[string]int{}, map[string]int{}, map[string]int{}
	for id, n := range pl.specs {
		p.left[id] = n
	}
	for id, n := range pl.ruleSpecs {
		p.ruleLeft[id] = n
	}
	for a, n := range pl.areaRules {
		p.areaLeft[a] = n
	}
}

// install registers the report nodes that feed the progress. Call it
// after every preview of the specs (see newPlan). planned gives the plan
// once the run has built its tree of specs, before the first one runs: a
// run without a preview reads its plan from that tree (planOf).
func (p *progress) install(planned func() plan) {
	ginkgo.ReportBeforeSuite(func(types.Report) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.setPlan(planned())
	})
	if p.live {
		// Only the live line shows the spec starting. Ginkgo runs each
		// report node in a goroutine of its own: one per spec that shows
		// nothing costs a run's CPU for nothing.
		ginkgo.ReportBeforeEach(func(sr types.SpecReport) { p.specStarting(&sr) })
	}
	// A spec's report is passed on by pointer: it is over a kilobyte, and
	// each copy on the node's new goroutine's small stack made it grow.
	ginkgo.ReportAfterEach(func(sr types.SpecReport) { p.specDone(&sr) })
}

func (p *progress) specStarting(sr *types.SpecReport) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.left[specID(sr)] == 0 || p.stopping != "" {
		return
	}
	area, rules := specLabels(sr)
	p.current = area + " › " + strings.Join(rules, ", ")
	p.draw()
}

func (p *progress) specDone(sr *types.SpecReport) {
	p.mu.Lock()
	defer p.mu.Unlock()
	id := specID(sr)
	if p.left[id] == 0 {
		return // not selected: filtered out
	}
	p.left[id]--
	p.specsDone++
	_, rules := specLabels(sr)
	for _, rule := range rules {
		p.ruleStatus[rule] = worse(p.ruleStatus[rule], specStatus(sr))
		if p.ruleLeft[rule]--; p.ruleLeft[rule] > 0 {
			continue
		}
		p.rulesDone++
		area := p.plan.ruleArea[rule]
		if p.areaLeft[area]--; p.areaLeft[area] == 0 {
			p.clear()
			fmt.Fprintln(p.w, p.areaLine(area))
		}
	}
	if p.specsDone == p.plan.specCount && p.stopping == "" {
		p.stopping = "cleaning up (deleting what the run created, restoring settings)"
	}
	p.draw()
}

// specStatus is a spec's outcome as the report will count it (a failure
// for want of an answer could not finish; one of stopped writes is not
// checked).
func specStatus(sr *types.SpecReport) report.Status { return report.SpecStatus(sr) }

// worse is the status of a rule with statuses a and b among its specs: a
// failure beats an error beats a pass beats not checked (report.Build's
// order).
func worse(a, b report.Status) report.Status {
	if statusRank(b) > statusRank(a) {
		return b
	}
	return a
}

func statusRank(s report.Status) int {
	switch s {
	case report.Failed:
		return 4
	case report.Errored:
		return 3
	case report.Passed:
		return 2
	case report.NotChecked:
		return 1
	}
	return 0
}

// areaLine says how an area's rules came out, once its last rule is done.
func (p *progress) areaLine(area string) string {
	counts := map[report.Status]int{}
	n := 0
	for rule, a := range p.plan.ruleArea {
		if a == area {
			counts[p.ruleStatus[rule]]++
			n++
		}
	}
	var parts []string
	for _, s := range []struct {
		status report.Status
		words  string
	}{{report.Passed, "passed"}, {report.Failed, "failed"}, {report.Errored, "could not finish"}, {report.NotChecked, "not checked"}} {
		if counts[s.status] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s.status], s.words))
		}
	}
	mark := "✓" // every rule passed
	switch {
	case counts[report.Failed]+counts[report.Errored] > 0:
		mark = "✗"
	case counts[report.Passed] < n:
		mark = "-" // none failed, some not checked
	}
	return fmt.Sprintf("%s %-9s %s: %s (%s)", mark, area, plural(n, "rule"), strings.Join(parts, ", "), clockText(time.Since(p.started)))
}

// say writes lines above the live line.
func (p *progress) say(lines ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	for _, l := range lines {
		fmt.Fprintln(p.w, l)
	}
	p.draw()
}

// setStopping says, on the live line, what the run does instead of
// starting specs (cleanup after an interrupt).
func (p *progress) setStopping(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopping = what
	p.draw()
}

// tick redraws the live line (the elapsed time moves on).
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

// finish removes the live line.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.live = false
}

// liveText is the live line: rules done of all, what runs, requests made,
// time spent and an estimate of the time left.
func (p *progress) liveText() string {
	elapsed := time.Since(p.started)
	doing := p.current
	if p.stopping != "" {
		doing = p.stopping
	}
	text := fmt.Sprintf("%d/%d rules · %s · %s · %s", p.rulesDone, len(p.plan.ruleSpecs), doing, plural(p.requests(), "request"), clockText(elapsed))
	if p.stopping == "" && p.specsDone >= minSpecsForEstimate && p.specsDone < p.plan.specCount {
		perSpec := elapsed / time.Duration(p.specsDone)
		if left := perSpec * time.Duration(p.plan.specCount-p.specsDone); left >= time.Second {
			text += fmt.Sprintf(", about %s left", clockText(left))
		}
	}
	return text
}

// minSpecsForEstimate is how many specs must be done before the live line
// estimates the time left.
const minSpecsForEstimate = 3

// draw rewrites the live line in place: a carriage return, the line, and
// spaces over what is left of a longer line before (no escape codes, which
// NO_COLOR consoles may not want).
func (p *progress) draw() {
	if !p.live {
		return
	}
	text := clipLine(p.liveText(), p.width-1)
	n := utf8.RuneCountInString(text)
	fmt.Fprintf(p.w, "\r%s%s", text, strings.Repeat(" ", max(p.shown-n, 0)))
	p.shown = n
}

func (p *progress) clear() {
	if !p.live || p.shown == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.shown))
	p.shown = 0
}

func clipLine(s string, width int) string {
	if width < 10 || utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// clockText is a duration as minutes and seconds (1:05), or hours too.
func clockText(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// tickEvery redraws the live line every d until stop (on a terminal only).
func (p *progress) tickEvery(d time.Duration) (stop func()) {
	if !p.live {
		return func() {}
	}
	t := time.NewTicker(d)
	ticks := forEach(t.C, func(time.Time) { p.tick() })
	return func() {
		t.Stop()
		ticks()
	}
}

// forEach calls on with each value c delivers, in a goroutine, until
// stop, which returns once the goroutine has ended.
func forEach[T any](c <-chan T, on func(T)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case v := <-c:
				on(v)
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
