package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
)

// Options are what a fleet run needs besides its context.
type Options struct {
	Targets *Targets
	Shard   Shard
	// ReportDir holds the summary's files and, under sites/, one folder
	// per site with its reports.
	ReportDir string
	// SitesAtOnce bounds the sites checked side by side (and so the
	// memory: one process each).
	SitesAtOnce int
	// SiteReports are the formats each site's run writes besides JSON
	// (which the summary reads): html, junit, markdown, har.
	SiteReports []string
	// RunArgs are the flags every site's run gets (the fleet's own run
	// flags: --rps, --label-filter, ...); a site's Args follow them.
	RunArgs []string
	// ReadOnly checks every site read-only, whatever its mode.
	ReadOnly bool
	// Executable is the conformance binary each site runs in, and
	// Environ its environment before the site's target and tokens, which
	// the fleet adds (CONFORMANCE_BASE_URL, CONFORMANCE_TOKEN,
	// CONFORMANCE_AUTH_TOKEN): it must set nothing else a run reads.
	Executable string
	Environ    []string
	// SiteDeadline, when not 0, is how long a site's process may take
	// before it is interrupted, then killed: its run's --timeout and the
	// cleanup's share beyond it.
	SiteDeadline time.Duration
	SuiteVersion string
	Rules        []summary.Rule
	// Console receives one line per site as it finishes.
	Console io.Writer
}

// SitesDir is the folder of the sites' reports, under the report folder.
const SitesDir = "sites"

// Run checks the shard's sites, SitesAtOnce at a time, each in a child
// process, and returns the summary (Close it when done). A context
// cancelled (Ctrl-C) starts no further site and interrupts the ones in
// flight once, so that they clean up and write their reports; the sites
// not started are in the summary as not run.
func Run(ctx context.Context, o Options) (*summary.Summary, error) {
	started := time.Now()
	sites := o.Shard.Pick(o.Targets.Sites)
	head := summary.Fleet{SuiteVersion: o.SuiteVersion, Started: started,
		Targets: summary.Targets{File: o.Targets.File, Digest: o.Targets.Digest, Sites: len(o.Targets.Sites)}}
	if !o.Shard.Whole() {
		head.Shards = &summary.Shards{Total: o.Shard.Total, Present: []int{o.Shard.Index}}
	}
	if err := os.MkdirAll(filepath.Join(o.ReportDir, SitesDir), 0o755); err != nil {
		return nil, err
	}
	col, err := summary.NewCollector(head, o.Rules, o.ReportDir)
	if err != nil {
		return nil, err
	}
	if o.SitesAtOnce < 1 {
		o.SitesAtOnce = 1
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex // the console and the count of sites done
		done    int
		addErr  error
		slots   = make(chan struct{}, o.SitesAtOnce)
		console = o.Console
	)
	if console == nil {
		console = io.Discard
	}
	finish := func(s summary.Site) {
		err := col.Add(s)
		mu.Lock()
		defer mu.Unlock()
		addErr = errors.Join(addErr, err)
		done++
		fmt.Fprintln(console, summary.SiteLine(s, done, len(sites)))
	}
	for i, site := range sites {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			for _, s := range sites[i:] {
				finish(notRun(s, o.ReadOnly))
			}
			break
		}
		wg.Go(func() {
			defer func() { <-slots }()
			finish(o.check(ctx, site))
		})
	}
	wg.Wait()
	sum := col.Finish(time.Since(started))
	if addErr != nil {
		sum.Close()
		return nil, addErr
	}
	return sum, nil
}

// notRun is the line of a site the fleet never started.
func notRun(s Site, readOnly bool) summary.Site {
	return summary.Site{Index: s.Index, Name: s.Name, BaseURL: redactedURL(s.BaseURL), Mode: effectiveMode(s, readOnly),
		Outcome: summary.NotRun, Exit: -1, Verdict: "Not run: the fleet was interrupted before this site started."}
}

// effectiveMode is the mode the site is checked in.
func effectiveMode(s Site, readOnly bool) string {
	if readOnly {
		return ModeReadOnly
	}
	return s.Mode
}
