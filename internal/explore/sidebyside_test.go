package explore

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// requestLog records what a server receives, as comparable lines: the
// tokens and the run's marker (new each run) replaced by names.
type requestLog struct {
	mu    sync.Mutex
	lines []string
	names *strings.Replacer
}

// runMarker matches the run marker of any run (marker.Of), and runID a
// run's ID alone (the proof page of child pages names it in its title).
var (
	runMarker = regexp.MustCompile(`conformance-\d{8}t\d{4}-[0-9a-f]{6}-`)
	runID     = regexp.MustCompile(`\b\d{8}t\d{4}-[0-9a-f]{6}\b`)
)

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		line := l.names.Replace(r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Content-Type") + " " + string(body))
		l.mu.Lock()
		l.lines = append(l.lines, runID.ReplaceAllString(runMarker.ReplaceAllString(line, "conformance-RUN-"), "RUN"))
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// sentBy explores a fresh reference server with seed and returns the
// requests it received, sorted (preflight's reads go out side by side,
// in any order).
func sentBy(t *testing.T, seed uint64) []string {
	opts := reference.Options{Token: reference.NewToken(), AuthToken: reference.NewToken()}
	log := &requestLog{names: strings.NewReplacer(opts.Token, "API-TOKEN", opts.AuthToken, "AUTH-TOKEN")}
	srv := testkit.ReferenceWith(t, opts, log.wrap)
	// A time budget no exploration here reaches: only requests bound it,
	// so what it sends does not depend on how fast the machine is.
	res, out := exploreRef(t, srv, Config{Seed: seed, Requests: 300, Time: 10 * time.Minute})
	if res.Exit != ExitPass {
		t.Errorf("seed %d: exit %d:\n%s", seed, res.Exit, out)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	return slices.Sorted(slices.Values(log.lines))
}

// TestExplorationsSideBySide: rapid's settings (seed, number of checks)
// are global flags; two explorations in one process, side by side, each
// still send exactly what they send alone (check holds rapidMu until
// rapid has read them). Under the race detector, a check that set them
// without the lock, or rapid reading them after the lock is released,
// is a data race between the two.
func TestExplorationsSideBySide(t *testing.T) {
	seeds := []uint64{11, 12}
	alone := make([][]string, len(seeds))
	for i, seed := range seeds {
		alone[i] = sentBy(t, seed)
	}
	together := make([][]string, len(seeds))
	var wg sync.WaitGroup
	for i, seed := range seeds {
		wg.Go(func() { together[i] = sentBy(t, seed) })
	}
	wg.Wait()
	for i, seed := range seeds {
		if !slices.Equal(alone[i], together[i]) {
			at := 0
			for at < min(len(alone[i]), len(together[i])) && alone[i][at] == together[i][at] {
				at++
			}
			t.Errorf("seed %d: side by side, the exploration sent other requests than alone (%d and %d requests; the first difference in sorted order, at %d):\nalone:    %s\ntogether: %s",
				seed, len(alone[i]), len(together[i]), at+1, line(alone[i], at), line(together[i], at))
		}
	}
	if slices.Equal(alone[0], alone[1]) {
		t.Errorf("seeds %v sent the same requests: the comparison shows nothing", seeds)
	}
}

func line(lines []string, i int) string {
	if i >= len(lines) {
		return "(none)"
	}
	return lines[i]
}
