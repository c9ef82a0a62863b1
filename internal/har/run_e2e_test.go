package har_test

// End-to-end: the CLI runs the whole suite as a subprocess against the
// reference server (TestMain makes the test binary the CLI) and writes
// its HAR log.

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestMain(m *testing.M) { selftest.Main(m) }

// The log of a whole run with writes validates, holds every request the
// run made once (by its number) and each replay of the read cache,
// and holds neither token in any form.
func TestRunLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mutants []reference.Mutant
		args    []string
		stdout  bool // the log goes to standard output (--har-report -)
	}{
		{name: "tokens in parameters"},
		// The tokens in Authorization and X-Auth-Token (a newer release).
		{name: "tokens in headers, log on standard output", mutants: []reference.Mutant{reference.BenignNewerRelease},
			args: []string{"--credentials", "header"}, stdout: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := testkit.Reference(t, tc.mutants...)
			dir := t.TempDir()
			harArg := "run.har"
			if tc.stdout {
				harArg = "-"
			}
			res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: 2 * time.Minute,
				Args: append([]string{"--allow-settings-write", "--har-report", harArg, "--json-report", "run.json"}, tc.args...),
				Env:  []string{"CONFORMANCE_BASE_URL=" + srv.URL, "CONFORMANCE_TOKEN=" + srv.Token, "CONFORMANCE_AUTH_TOKEN=" + srv.AuthToken}})
			if res.Err != nil || res.Exit != 0 {
				t.Fatalf("exit %d (%v), want 0\n%s\n%s", res.Exit, res.Err, selftest.Tail(res.Stdout, 20), selftest.Tail(res.Stderr, 20))
			}
			path := filepath.Join(dir, "run.har")
			if tc.stdout {
				if err := os.WriteFile(path, []byte(res.Stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(res.Stderr, "Reports: run.json, standard output") {
					t.Errorf("the summary does not name standard output among the reports:\n%s", selftest.Tail(res.Stderr, 5))
				}
			}
			mustValidate(t, path)
			run, err := report.ReadJSONFile(filepath.Join(dir, "run.json"))
			if err != nil {
				t.Fatal(err)
			}
			h := readLog(t, path)
			checkNumbers(t, h, run.Meta.Requests)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			for name, secret := range map[string]string{"API token": srv.Token, "auth token": srv.AuthToken} {
				for _, form := range []string{secret, url.QueryEscape(secret), secret[:20], secret[len(secret)-20:]} {
					if strings.Contains(text, form) {
						t.Errorf("the log holds the %s (%q)", name, form)
					}
				}
			}
			if !strings.Contains(text, client.TokenPlaceholder) || !strings.Contains(text, client.AuthTokenPlaceholder) {
				t.Error("the log shows neither placeholder: the scan above proves nothing")
			}
		})
	}
}

// checkNumbers checks that the entries that are no replays are the
// requests 1..requests, each once, and that each replay repeats one of
// them.
func checkNumbers(t *testing.T, h *har.HAR, requests int) {
	t.Helper()
	if requests < 100 {
		t.Fatalf("the run made %d requests: not a whole run", requests)
	}
	seen := map[int]int{}
	replays := 0
	for _, e := range h.Log.Entries {
		if e.Replayed {
			replays++
			continue
		}
		seen[e.Seq]++
	}
	for seq := 1; seq <= requests; seq++ {
		if seen[seq] != 1 {
			t.Errorf("request #%d is in the log %d times, want once", seq, seen[seq])
		}
	}
	if len(seen) != requests {
		t.Errorf("the log holds %d requests, the run made %d", len(seen), requests)
	}
	for _, e := range h.Log.Entries {
		if e.Replayed && seen[e.Seq] != 1 {
			t.Errorf("a replay of #%d, which is no request of the log", e.Seq)
		}
	}
	if got, want := len(h.Log.Entries), requests+replays; got != want {
		t.Errorf("%d entries, want %d requests and %d replays", got, requests, replays)
	}
	t.Logf("%d requests and %d replays", requests, replays)
}
