package selftest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
	"github.com/conformance-suite/conformance/internal/tripwire"
)

// writesAfterLoss counts the run's writes, and those that reached the
// server after the victim page was gone.
type writesAfterLoss struct {
	ref            *reference.Server
	victim         string
	mu             sync.Mutex
	writes, after  int
	gone           bool
	writesAfterHit []string
	onLoss         func() // called once, when the victim is first seen gone
}

func (f *writesAfterLoss) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write := reference.IsWrite(r.Method)
		f.mu.Lock()
		if write {
			f.writes++
			if f.gone {
				f.after++
				f.writesAfterHit = append(f.writesAfterHit, r.Method+" "+r.URL.Path)
			}
		}
		f.mu.Unlock()
		h.ServeHTTP(w, r)
		if write {
			f.mu.Lock()
			was := f.gone
			f.gone = f.gone || !slices.ContainsFunc(f.ref.Storage().Pages, func(p reference.StoredPage) bool { return p.Key == f.victim })
			if f.gone && !was && f.onLoss != nil {
				f.onLoss()
			}
			f.mu.Unlock()
		}
	})
}

// foreignWriter stands for another editor of the site: at the run's
// deleteOnWrite-th write it deletes a seeded page the run never touches.
type foreignWriter struct {
	token, auth   string
	mu            sync.Mutex
	writes        int
	deleted       bool
	deleteOnWrite int
	victim        string
}

func (f *foreignWriter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reference.IsWrite(r.Method) {
			f.mu.Lock()
			f.writes++
			if f.writes == f.deleteOnWrite && !f.deleted {
				q := url.Values{"token": {f.token}, "authentication": {f.auth}}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/api/pages/"+f.victim+"?"+q.Encode(), nil))
				f.deleted = rec.Code == http.StatusOK
			}
			f.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

// TestTripwireStopsWrites: another writer deletes a seeded page in the
// middle of a full write run (the reference's foreign-writer hazard, at
// the run's fifth write). The run notices at its next check, sends no
// further write (cleanup and settings restore included), reports the
// remaining write rules not checked with the reason, and exits 3 with one
// sentence naming the lost page, telling the owner to restore from backup
// and listing the run's own pages for `conformance cleanup`.
func TestTripwireStopsWrites(t *testing.T) {
	fw := &writesAfterLoss{victim: reference.ForeignWriterPage}
	ref := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{reference.ForeignWriter}},
		func(h http.Handler) http.Handler { return fw.wrap(h) })
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	// A report that can no longer be written when the run ends (its
	// folder became a file once the site lost data) must not hide the
	// loss behind the exit code of a usage error.
	blocker := filepath.Join(dir, "reports")
	if err := os.Mkdir(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	fw.mu.Lock() // the server's handlers read them under fw.mu
	fw.ref = ref.Server
	fw.onLoss = func() {
		if err := os.Remove(blocker); err == nil {
			_ = os.WriteFile(blocker, nil, 0o600)
		}
	}
	fw.mu.Unlock()
	res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: runTimeout,
		Args: []string{"--base-url", ref.URL, "--no-color", "--allow-settings-write", "--json-report", path,
			"--junit-report", filepath.Join(blocker, "junit.xml")},
		Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
	if !fw.gone {
		t.Fatalf("the foreign writer never deleted %s (%d writes)", fw.victim, fw.writes)
	}
	if res.Exit != 3 {
		t.Fatalf("exit %d, want 3:\n%s", res.Exit, selftest.Tail(res.Stdout, 30))
	}
	run, err := report.ReadJSONFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The site lost data during the run", "these pages are no longer listed: " + fw.victim,
		"Writes were stopped at once", "restore the site from a backup"} {
		if !strings.Contains(run.Verdict, want) || !strings.Contains(res.Stdout, want) {
			t.Errorf("verdict and console should say %q; verdict: %s", want, run.Verdict)
		}
	}
	// Writes after the page vanished: only those before the check that
	// found it (at most one check interval), none after.
	after := regexp.MustCompile(`Writes were stopped at once \(after (\d+)\)`).FindStringSubmatch(run.Verdict)
	if after == nil {
		t.Fatalf("the verdict does not say after how many writes: %s", run.Verdict)
	}
	if n, _ := strconv.Atoi(after[1]); n != fw.writes { // the foreign delete went past the counter
		t.Errorf("the run says it stopped after %d writes; the server saw %d of the run's", n, fw.writes)
	}
	t.Logf("%d writes reached the site after the page vanished; verdict: %s", fw.after, run.Verdict)
	// A check is due every tripwire.DefaultCheckEvery writes; it goes out
	// beside the next reads, and a write after it waits for it at most
	// another interval.
	if bound := 2 * tripwire.DefaultCheckEvery; fw.after > bound {
		t.Errorf("%d writes reached the site after the page vanished, want at most %d: %v", fw.after, bound, fw.writesAfterHit)
	}
	stopped, failedWrites := 0, []string{}
	for _, r := range run.Rules {
		if r.Status == report.NotChecked && strings.HasPrefix(r.Reason, "writes were stopped: the site lost data during the run") {
			stopped++
		}
		if r.Status == report.Failed {
			failedWrites = append(failedWrites, r.ID)
		}
	}
	if stopped == 0 {
		t.Errorf("no rule is reported not checked because writes were stopped")
	}
	if len(failedWrites) > 0 {
		t.Errorf("rules failed on a conforming server whose site lost a page: %v", failedWrites)
	}
	// The run's own pages it could not remove are the ones named, for
	// `conformance cleanup`.
	left := 0
	for _, p := range ref.Storage().Pages {
		if strings.HasPrefix(p.Key, "conformance-") {
			left++
			if !strings.Contains(run.Verdict, p.Key) {
				t.Errorf("the run's page %s is still on the site but the verdict does not name it", p.Key)
			}
		}
	}
	if left == 0 || !strings.Contains(run.Verdict, "conformance cleanup --base-url "+ref.URL) {
		t.Errorf("%d pages of the run left; the verdict should name them for conformance cleanup: %s", left, run.Verdict)
	}
}
