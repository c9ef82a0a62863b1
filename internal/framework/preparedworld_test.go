package framework_test

// The world the tests of prepared_test.go run their small suites in: a
// reference server behind a recorder, a fixture configured as a run of
// the CLI configures it, counters of what the prepare functions did, and
// the run's results.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// serverLog records what reaches the server. Requests under /t/ are the
// tests' own: answered 200 with their path as data, after ?ms= milliseconds.
type serverLog struct {
	mu       sync.Mutex
	now      int
	peak     int      // most requests under /t/ in flight at once
	answered []string // paths under /t/, in the order answered
}

func (l *serverLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/t/") {
			h.ServeHTTP(w, r)
			return
		}
		l.mu.Lock()
		l.now++
		l.peak = max(l.peak, l.now)
		l.mu.Unlock()
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		l.mu.Lock()
		l.now--
		l.answered = append(l.answered, r.URL.Path)
		l.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"0","data":%q}`, r.URL.Path)
	})
}

func (l *serverLog) answers() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.answered...)
}

func (l *serverLog) maxInFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.peak
}

// world is one small suite's run.
type world struct {
	target   *framework.Fixture
	server   *serverLog
	snapshot func(context.Context) (frameworktest.Snapshot, error)

	mu     sync.Mutex
	calls  map[string]int    // prepare (and Share) functions run, by name
	keys   map[string]string // pages created, by the name of their prepare
	events []string          // what prepares and judges did, in order
}

// setup configures a world's fixture.
type setup struct {
	concurrency int
	readOnly    bool
}

func newWorld(t *testing.T, s setup) *world {
	t.Helper()
	log := &serverLog{}
	ref := testkit.ReferenceWith(t, reference.Options{}, log.wrap)
	// As the CLI configures a run: the read cache on, --concurrency both
	// the prepares' and the client's bound.
	cfg := client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, ReadCache: true,
		MaxInFlight: s.concurrency, ReadOnly: s.readOnly}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	return &world{
		target: framework.New(c, framework.Options{ReadOnly: s.readOnly, Concurrency: s.concurrency}),
		server: log,
		snapshot: func(ctx context.Context) (frameworktest.Snapshot, error) {
			return frameworktest.TakeSnapshot(ctx, snap)
		},
		calls: map[string]int{}, keys: map[string]string{},
	}
}

// called counts a run of the prepare (or Share) function name.
func (w *world) called(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[name]++
}

func (w *world) count(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls[name]
}

// event notes what a prepare or judge did.
func (w *world) event(e string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, e)
}

func (w *world) eventLog() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.events...)
}

// created notes the page a prepare function called name created.
func (w *world) created(name, key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.keys[name] = key
}

func (w *world) key(name string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.keys[name]
}

// run installs the suite-wide nodes and runs the specs registered so far
// (filtered by labelFilter), telling the fixture which specs the run
// selected as the runner does, less those named in unforeseen; it returns
// the specs' results by Case.
func (w *world) run(t *testing.T, labelFilter string, unforeseen ...string) map[verdict.Case]report.SpecResult {
	t.Helper()
	gomega.RegisterFailHandler(ginkgo.Fail)
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	sc.LabelFilter = labelFilter
	rc.Succinct, rc.NoColor = true, true
	preview := ginkgo.PreviewSpecs("prepared", sc)
	var keys []string
	for _, sr := range preview.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt || sr.State != types.SpecStatePassed || unforeseenSpec(sr.LeafNodeText, unforeseen) {
			continue
		}
		keys = append(keys, framework.SpecKey(sr.LeafNodeLocation, sr.LeafNodeText))
	}
	w.target.Select(keys)
	framework.Install(w.target)
	ginkgo.RunSpecs(ignoreFailures{}, "prepared", sc, rc)
	run := report.Build(w.target.Report(), w.target.Catalogue, report.Meta{}, report.Extras{})
	specs := map[verdict.Case]report.SpecResult{}
	for _, s := range run.Specs {
		specs[s.Case] = s
	}
	return specs
}

func unforeseenSpec(text string, cases []string) bool {
	for _, c := range cases {
		if strings.HasSuffix(text, "("+c+")") {
			return true
		}
	}
	return false
}

// ginkgoSpec is Ginkgo's report of the spec of Case c.
func (w *world) ginkgoSpec(c string) types.SpecReport {
	for _, sr := range w.target.Report().SpecReports {
		if sr.LeafNodeType == types.NodeTypeIt && strings.HasSuffix(sr.LeafNodeText, "("+c+")") {
			return sr
		}
	}
	return types.SpecReport{}
}

// deletes lists the exchanges that deleted the page key.
func (w *world) deletes(key string) []*client.Exchange {
	var out []*client.Exchange
	for _, ex := range w.target.Client.Since(0) {
		if u, err := url.Parse(ex.URL); err == nil && ex.Method == http.MethodDelete && u.Path == pagelist.PagePath(key) {
			out = append(out, ex)
		}
	}
	return out
}

// interruptSelf sends this process SIGINT, as Ctrl-C would.
func interruptSelf(t *testing.T) {
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(os.Interrupt)
	}
	if err != nil {
		t.Errorf("interrupting the run: %v", err)
	}
}
