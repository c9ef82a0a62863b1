package selftest_test

// Runs with --credentials header against reference servers started in this
// process, which record where each request carried the tokens.

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
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
)

// placementRules are the rules whose specs may send the tokens in the URL
// or body in a header run: the spec's placement rules (4, 5.3, 5.4).
var placementRules = []string{"AUTH-TOKEN-IN-QUERY", "AUTH-TOKEN-IN-BODY", "AUTH-DELETE-JSON-BODY", "AUTH-PARAM-NAME"}

// tokenPlaces records, per request a server got, whether a token was in
// its URL or body, and whether one came in a credential header.
type tokenPlaces struct {
	secrets []string
	mu      sync.Mutex
	inParam []string // "METHOD /path" of each request with a token in the URL or body
	headers int      // requests with Authorization or X-Auth-Token
	total   int
}

func (p *tokenPlaces) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		inParam := false
		for _, s := range p.secrets {
			inParam = inParam || strings.Contains(r.RequestURI, s) || bytes.Contains(body, []byte(s))
		}
		p.mu.Lock()
		p.total++
		if inParam {
			p.inParam = append(p.inParam, r.Method+" "+r.URL.Path)
		}
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Auth-Token") != "" {
			p.headers++
		}
		p.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// listedProbe matches a placement probe the summary lists:
// "  METHOD URL (RULE; tokens in the ...)".
var listedProbe = regexp.MustCompile(`^  ([A-Z]+) (\S+) \(([A-Z0-9-]+); tokens in the (?:query string|body)\)$`)

// probeCount reads N from the summary's "except in N placement probe(s)".
var probeCount = regexp.MustCompile(`except in (\d+) placement probe\(s\)`)

// TestHeaderCredentialsRun runs the whole suite with --credentials header
// against a server that takes header credentials (a newer release): it
// passes, and the requests that carried a token in the URL or body are
// exactly the placement probes the summary lists and counts, each sent by
// a spec of a placement rule.
func TestHeaderCredentialsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("a full run")
	}
	tok, auth := reference.NewToken(), reference.NewToken()
	places := &tokenPlaces{secrets: []string{tok, auth}}
	base := testkit.ReferenceWith(t, reference.Options{Token: tok, AuthToken: auth,
		Mutants: []reference.Mutant{reference.BenignNewerRelease}}, places.wrap).URL
	reportPath := filepath.Join(t.TempDir(), "report.json")
	res := selftest.Run(t.Context(), selftest.Cmd{
		Args: []string{"--base-url", base, "--allow-settings-write", "--credentials", "header", "--no-color", "--json-report", reportPath},
		Env:  []string{"CONFORMANCE_TOKEN=" + tok, "CONFORMANCE_AUTH_TOKEN=" + auth},
	})
	if res.Exit != 0 {
		t.Fatalf("exit %d, want 0:\n%s", res.Exit, selftest.Tail(res.Stdout, 40))
	}
	if !strings.Contains(res.Stdout, "The target takes the tokens in headers (Authorization: Bearer and X-Auth-Token), where this run sends them") {
		t.Errorf("the preflight's sentence on header credentials is missing:\n%s", selftest.Tail(res.Stdout, 60))
	}
	m := probeCount.FindStringSubmatch(res.Stdout)
	if m == nil {
		t.Fatalf("the summary does not count the placement probes:\n%s", selftest.Tail(res.Stdout, 30))
	}
	counted, _ := strconv.Atoi(m[1])
	var listed []string
	for _, line := range strings.Split(res.Stdout, "\n") {
		lm := listedProbe.FindStringSubmatch(line)
		if lm == nil {
			continue
		}
		u, err := url.Parse(lm[2])
		if err != nil {
			t.Fatalf("listed probe %q: %v", line, err)
		}
		listed = append(listed, lm[1]+" "+u.Path)
		if !slices.Contains(placementRules, lm[3]) {
			t.Errorf("a request of %s carried the tokens in the URL or body; only the placement rules %v may: %s",
				lm[3], placementRules, line)
		}
	}
	places.mu.Lock()
	sent := slices.Sorted(slices.Values(places.inParam))
	headers, total := places.headers, places.total
	places.mu.Unlock()
	slices.Sort(listed)
	if len(sent) == 0 || counted != len(sent) || !slices.Equal(sent, listed) {
		t.Errorf("the server got %d request(s) with a token in the URL or body; the summary counts %d and lists %d:\n"+
			"  got:    %v\n  listed: %v", len(sent), counted, len(listed), sent, listed)
	}
	t.Logf("%d requests: %d with credential headers, %d placement probes with the tokens in the URL or body", total, headers, len(sent))

	run, err := report.ReadJSONFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(run.Observations, func(o string) bool { return strings.Contains(o, m[0]) }) {
		t.Errorf("the report's observations do not count the placement probes (%q):\n  %s", m[0], strings.Join(run.Observations, "\n  "))
	}
}

// TestHeaderCredentialsRefused: --credentials header against a server that
// reads the tokens only from parameters (the spec's placement) stops at
// the preflight with exit 3 and one sentence, and no request carries a
// token in the URL or body.
func TestHeaderCredentialsRefused(t *testing.T) {
	tok, auth := reference.NewToken(), reference.NewToken()
	places := &tokenPlaces{secrets: []string{tok, auth}}
	base := testkit.ReferenceWith(t, reference.Options{Token: tok, AuthToken: auth}, places.wrap).URL
	res := selftest.Run(t.Context(), selftest.Cmd{
		Args: []string{"--base-url", base, "--credentials", "header", "--no-color"},
		Env:  []string{"CONFORMANCE_TOKEN=" + tok, "CONFORMANCE_AUTH_TOKEN=" + auth},
	})
	want := "The target cannot be checked: The target does not take the API token from an Authorization: Bearer header"
	if res.Exit != 3 || strings.Count(res.Stdout, want) != 1 {
		t.Errorf("exit %d, want 3 and one sentence starting %q:\n%s", res.Exit, want, res.Stdout)
	}
	places.mu.Lock()
	defer places.mu.Unlock()
	if len(places.inParam) > 0 || places.total == 0 {
		t.Errorf("%d request(s) sent, %d with a token in the URL or body (%v), want none", places.total, len(places.inParam), places.inParam)
	}
}
