// Package explore is `conformance explore`: generated inputs (package
// gen, with pgregory.net/rapid) sent to a target and judged by oracles
// that are rules of the catalogue (package oracle); a failure is shrunk by
// rapid to the smallest input that still fails, reported with its curl
// line and saved to a file that --replay sends again (replay.go).
//
// It keeps every promise of a normal run: one write at a time (the
// client's wire), only run-marked pages created and each deleted (also on
// failure and interrupt), settings restored and verified after each
// change, the tripwire on, and a budget in requests and in time. A
// read-only exploration sends GETs and write probes that cannot succeed.
package explore

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/preflight"
	"github.com/conformance-suite/conformance/internal/report"
)

// Default budget: about a minute on a site 50 ms away (measured by
// BenchmarkDistantExplore), well under a second against the reference
// server on the loopback.
const (
	DefaultRequests = 2000
	DefaultTime     = 60 * time.Second
)

// Exit codes, as a normal run's.
const (
	ExitPass     = 0
	ExitFindings = 1
	ExitUsage    = 2
	ExitUnusable = 3
)

// Config is one exploration.
type Config struct {
	// Client is the target, the tokens and how requests go (the read
	// cache is switched off: explore reads what the target holds now).
	Client         client.Config
	SettingsWrites bool
	// Seed decides every generated case (0: a random one, reported).
	Seed uint64
	// Requests and Time are the budget (0: the defaults).
	Requests int
	Time     time.Duration
	// Kinds, when set, explores only these kinds of case.
	Kinds []gen.Kind
	// ReplayDir is where each finding's replay file is written.
	ReplayDir string
	// Replay, when set, sends the cases of these replay files instead of
	// exploring.
	Replay []string
	Reports
	SuiteVersion string
	RunID        string
	Verbose      bool
	// FailFast ends the exploration after its first finding (shrunk and
	// reported like any other).
	FailFast bool
}

// Reports are the report files to write ("" none, "-" standard output).
type Reports = report.Files

// Result is what an exploration did.
type Result struct {
	Exit    int
	Seed    uint64
	Records []Record
	// Cases counts the cases sent while searching, by kind.
	Cases    map[gen.Kind]int
	Requests int
	Report   *report.Run
	// Stop says why the search ended; Covered counts the field classes it
	// reached, of all (behaviour.coverage).
	Stop    string
	Covered [2]int
}

// Run explores the target (or replays cfg.Replay) and writes the summary
// to stdout.
func Run(ctx context.Context, cfg Config, stdout io.Writer) Result {
	started := time.Now()
	if cfg.Seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		cfg.Seed = binary.LittleEndian.Uint64(b[:])>>12 + 1
	}
	cfg.Requests = positive(cfg.Requests, DefaultRequests)
	if cfg.Time <= 0 {
		cfg.Time = DefaultTime
	}
	cc := cfg.Client
	cc.ReadCache = false
	cc.ReadOnly = cc.ReadOnly || cc.AuthToken == ""
	cfg.SettingsWrites = cfg.SettingsWrites && !cc.ReadOnly
	c, err := client.New(cc)
	if err != nil {
		fmt.Fprintln(stdout, "conformance: "+err.Error())
		return Result{Exit: ExitUsage, Seed: cfg.Seed}
	}
	var rec *har.Recorder
	if cfg.HAR != "" {
		rec = har.Record(c, har.Limits{}) // before the first request
	}
	out := c.Redactor().Writer(stdout)
	defer out.Flush()
	fx := framework.New(c, framework.Options{ReadOnly: cc.ReadOnly, SettingsWrites: cfg.SettingsWrites, RunID: cfg.RunID})
	defer fx.Close()
	s := &session{cfg: cfg, c: c, fx: fx, cases: map[gen.Kind]int{}, out: out, behaviour: newBehaviour(),
		modelled: recordSite(c, fx.RunID)}
	s.budget = budget{requests: cfg.Requests, time: cfg.Time, start: started, seq: c.Seq}
	mode := "read-only"
	if fx.CanWrite() {
		mode = "writes"
		if cfg.SettingsWrites {
			mode = "writes+settings"
		}
	}
	s.mode = mode
	fmt.Fprintf(out, "conformance %s explore: %s (%s mode), seed %d, budget %d requests / %s\n",
		cfg.SuiteVersion, c.BaseURL(), mode, cfg.Seed, cfg.Requests, cfg.Time)
	if p := preflight.Check(ctx, c).Problem; p != nil {
		fmt.Fprintf(out, "\nThe target cannot be checked: %s\n", p.Sentence)
		return s.finish(ctx, rec, started, ExitUnusable, "The target cannot be checked: "+p.Sentence)
	}
	if err := s.load(ctx); err != nil {
		fmt.Fprintf(out, "\nThe target cannot be explored: %v\n", err)
		return s.finish(ctx, rec, started, ExitUnusable, "The target cannot be explored: "+err.Error())
	}
	s.budget.from = c.Seq()
	if len(cfg.Replay) > 0 {
		return s.replayAll(ctx, rec, started)
	}
	s.explore(ctx, s.active())
	return s.finish(ctx, rec, started, 0, "")
}

// active lists the properties this exploration runs.
func (s *session) active() []property {
	var out []property
	for _, p := range properties {
		switch {
		case p.writes && !s.fx.CanWrite():
		case p.settings && !s.site.SettingsWrites:
		case len(s.cfg.Kinds) > 0 && !contains(s.cfg.Kinds, p.kind):
		default:
			out = append(out, p)
		}
	}
	return out
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func positive(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
