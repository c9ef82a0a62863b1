package selftest_test

// Canary redaction scan: the CLI runs against reference servers started in
// this process with distinctive tokens, and nothing it prints or writes may
// hold either token in any encoding.

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// canary returns a token that cannot occur by chance: prefix and 56 random
// hex characters.
func canary(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 28)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + hex.EncodeToString(b)
}

// leakForms lists the ways a secret can travel in text, named: as is,
// query-, path-, JSON- and HTML-escaped, and base64 in every alphabet and
// at each alignment inside a longer base64 blob (the inner characters of
// the encoding of x+secret depend on the secret alone).
func leakForms(secret string) map[string]string {
	jsonForm, _ := json.Marshal(secret)
	forms := map[string]string{
		"raw":           secret,
		"query-escaped": url.QueryEscape(secret),
		"path-escaped":  url.PathEscape(secret),
		"json-escaped":  strings.Trim(string(jsonForm), `"`),
		"html-escaped":  html.EscapeString(secret),
		"base64":        base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64url":     base64.URLEncoding.EncodeToString([]byte(secret)),
	}
	for pad := 0; pad < 3; pad++ {
		for name, enc := range map[string]*base64.Encoding{"std": base64.StdEncoding, "url": base64.URLEncoding} {
			e := enc.EncodeToString([]byte(strings.Repeat("x", pad) + secret))
			// Drop the first quantum (may hold the padding bytes) and the
			// last two (may hold the end and '=').
			forms["base64-"+name+"-inner-"+string(rune('0'+pad))] = e[4 : len(e)-8]
		}
	}
	return forms
}

// fragmentLen is the shortest run of a secret's characters that counts as
// a leak: a token cut short (a spec's "almost right" token) still gives
// most of it away.
const fragmentLen = 20

// leaks returns "secretName as form" for each form of each secret in text,
// and "secretName fragment" when a run of fragmentLen of its characters
// appears.
func leaks(text string, secrets map[string]string) []string {
	var found []string
	for sname, s := range secrets {
		for fname, f := range leakForms(s) {
			if f != "" && strings.Contains(text, f) {
				found = append(found, sname+" as "+fname)
			}
		}
		for i := 0; i+fragmentLen <= len(s); i++ {
			if strings.Contains(text, s[i:i+fragmentLen]) {
				found = append(found, sname+" fragment")
				break
			}
		}
	}
	sort.Strings(found)
	return found
}

func TestLeakScannerFindsEveryForm(t *testing.T) {
	s := canary(t, "canaryTOKEN")
	secrets := map[string]string{"token": s}
	for _, text := range []string{
		"x " + s + " y",
		"token=" + url.QueryEscape(s),
		`{"token":"` + s + `"}`,
		base64.StdEncoding.EncodeToString([]byte("Basic a:" + s)),
		base64.URLEncoding.EncodeToString([]byte("{\"t\":\"" + s + "\"}")),
		base64.StdEncoding.EncodeToString([]byte("ab" + s + "cd")),
	} {
		if len(leaks(text, secrets)) == 0 {
			t.Errorf("the scanner misses the canary in %q", text)
		}
	}
	if len(leaks("x"+s[5:5+fragmentLen]+"x", secrets)) == 0 {
		t.Error("the scanner misses a fragment of the canary")
	}
	if got := leaks("token=${CONFORMANCE_TOKEN} "+canary(t, "canaryTOKEN"), secrets); len(got) != 0 {
		t.Errorf("the scanner reports a different canary: %v", got)
	}
}

// echoTokens wraps a server so that every response repeats the request's
// query string, body and credential headers in headers: any exchange the
// suite prints then carries the tokens on the response side too.
func echoTokens(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		r.Body = io.NopCloser(bytes.NewReader(body))
		w.Header().Set("X-Echo-Query", r.URL.RawQuery)
		if len(body) > 4096 {
			body = body[:4096]
		}
		w.Header().Set("X-Echo-Body", strings.NewReplacer("\r", " ", "\n", " ").Replace(string(body)))
		w.Header().Set("X-Echo-Authorization", r.Header.Get("Authorization"))
		w.Header().Set("X-Echo-Auth-Token", r.Header.Get("X-Auth-Token"))
		h.ServeHTTP(w, r)
	})
}

// canaryServer serves a reference server (with mutants, echoing tokens if
// asked) in this process.
func canaryServer(t *testing.T, token, auth string, echo bool, mutants ...reference.Mutant) string {
	t.Helper()
	var wrap func(http.Handler) http.Handler
	if echo {
		wrap = echoTokens
	}
	return testkit.ReferenceWith(t, reference.Options{Token: token, AuthToken: auth, Mutants: mutants}, wrap).URL
}

// scanRun checks stdout, stderr and every file under dir for the secrets.
func scanRun(t *testing.T, res selftest.Result, dir string, secrets map[string]string) {
	t.Helper()
	if f := leaks(res.Stdout, secrets); len(f) > 0 {
		t.Errorf("stdout leaks %v", f)
	}
	if f := leaks(res.Stderr, secrets); len(f) > 0 {
		t.Errorf("stderr leaks %v", f)
	}
	files := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if f := leaks(string(b), secrets); len(f) > 0 {
			t.Errorf("%s leaks %v", filepath.Base(path), f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Errorf("the run wrote no file to scan")
	}
}

func TestTokensNeverAppearInOutput(t *testing.T) {
	token, auth := canary(t, "canaryTOKEN"), canary(t, "canaryAUTH")
	secrets := map[string]string{"API token": token, "auth token": auth}
	env := []string{"CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth}
	reports := func(dir string) []string {
		return []string{"--json-report", filepath.Join(dir, "reports", "run.json"),
			"--junit-report", filepath.Join(dir, "reports", "run.xml"), "--har-report", filepath.Join(dir, "reports", "run.har"),
			"--verbose", "--no-color"}
	}
	cases := []struct {
		name     string
		base     string
		args     []string
		env      []string
		wantExit []int
		check    func(t *testing.T, dir string)
	}{
		// The echo of a binary upload's body breaks the answer to POST
		// /api/images: its rules fail, or could not finish when the
		// connection is seen to close first (exit 4).
		{name: "full run with writes", base: canaryServer(t, token, auth, true),
			args: []string{"--allow-settings-write"}, env: env, wantExit: []int{0, 1, 4}},
		{name: "failing run against legacy-3.21", base: canaryServer(t, token, auth, true, reference.Legacy321),
			args: []string{"--allow-settings-write"}, env: env, wantExit: []int{1},
			check: func(t *testing.T, dir string) {
				curlLinesUsePlaceholders(t, filepath.Join(dir, "reports", "run.json"), client.TokenPlaceholder, client.AuthTokenPlaceholder)
			}},
		// The tokens in Authorization and X-Auth-Token (a newer release).
		{name: "full run with header credentials", base: canaryServer(t, token, auth, true, reference.BenignNewerRelease),
			args: []string{"--allow-settings-write", "--credentials", "header"}, env: env, wantExit: []int{0, 1, 4}},
		{name: "failing run with header credentials",
			base: canaryServer(t, token, auth, true, reference.BenignNewerRelease, reference.CreateReturns200),
			args: []string{"--credentials", "header", "--label-filter", "area:pages"}, env: env, wantExit: []int{1},
			check: func(t *testing.T, dir string) {
				curlLinesUsePlaceholders(t, filepath.Join(dir, "reports", "run.json"),
					`-H "Authorization: Bearer ${CONFORMANCE_TOKEN}"`, `-H "X-Auth-Token: ${CONFORMANCE_AUTH_TOKEN}"`)
			}},
		{name: "header credentials refused", base: canaryServer(t, token, auth, true),
			args: []string{"--credentials", "header"}, env: env, wantExit: []int{3}},
		{name: "refused API token", base: canaryServer(t, canary(t, "canaryOTHER"), auth, true),
			env: env, wantExit: []int{3}},
		{name: "refused authentication token", base: canaryServer(t, token, canary(t, "canaryOTHER"), true),
			env: env, wantExit: []int{3}},
		{name: "tokens from files", base: canaryServer(t, token, auth, true, reference.CreateReturns200),
			args:     []string{"--token-file", "api.token", "--auth-token-file", "auth.token", "--label-filter", "area:pages"},
			wantExit: []int{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, v := range map[string]string{"api.token": token, "auth.token": auth} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(v+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			args := append([]string{"--base-url", c.base}, c.args...)
			args = append(args, reports(dir)...)
			res := selftest.Run(t.Context(), selftest.Cmd{Args: args, Env: c.env, Dir: dir, Timeout: runTimeout})
			if !slices.Contains(c.wantExit, res.Exit) {
				t.Errorf("exit %d, want one of %v:\n%s", res.Exit, c.wantExit, selftest.Tail(res.Stdout, 20))
			}
			// The token files hold the tokens by design; scan the rest.
			for _, name := range []string{"api.token", "auth.token"} {
				_ = os.Remove(filepath.Join(dir, name))
			}
			scanRun(t, res, dir, secrets)
			if c.check != nil {
				c.check(t, dir)
			}
		})
	}
}

// curlLinesUsePlaceholders checks the reproduce lines of a failing run's
// JSON report: they exist, and each of want (the placeholders
// ${CONFORMANCE_TOKEN} and ${CONFORMANCE_AUTH_TOKEN}, or the header
// options carrying them) is in one of them at least.
func curlLinesUsePlaceholders(t *testing.T, path string, want ...string) {
	t.Helper()
	run, err := report.ReadJSONFile(path)
	if err != nil {
		t.Fatal(err)
	}
	curls := 0
	with := map[string]int{}
	for _, s := range run.Specs {
		for _, line := range strings.Split(s.Requests, "\n") {
			i := strings.Index(line, "curl ")
			if i < 0 {
				continue
			}
			curls++
			for _, w := range want {
				if strings.Contains(line[i:], w) {
					with[w]++
				}
			}
		}
	}
	if curls == 0 {
		t.Fatal("the failing run's report holds no curl line")
	}
	for _, w := range want {
		if with[w] == 0 {
			t.Errorf("none of %d curl lines holds %s", curls, w)
		}
	}
}

// TestCurlLinesUsePlaceholders is the unit-level check: every way the
// client sends the tokens renders a curl line with the placeholders, and
// the line, run by a shell with the variables exported, sends the real
// tokens again.
func TestCurlLinesUsePlaceholders(t *testing.T) {
	token, auth := canary(t, "canaryTOKEN"), canary(t, "canaryAUTH")
	base := canaryServer(t, token, auth, false, reference.BenignNewerRelease)
	clients := map[client.CredentialsPlacement]*client.Client{}
	for _, p := range []client.CredentialsPlacement{client.CredentialsInParams, client.CredentialsInHeader} {
		c, err := client.New(client.Config{BaseURL: base, Token: token, AuthToken: auth, RequestTimeout: 10 * time.Second,
			CredentialsPlacement: p})
		if err != nil {
			t.Fatal(err)
		}
		clients[p] = c
	}
	secrets := map[string]string{"API token": token, "auth token": auth}
	// A wrong token built from the real one must not give it away.
	almost := token + "x"
	cases := []struct {
		name     string
		req      client.Request
		wantAuth bool
		inHeader bool // sent by a client in header mode (--credentials header)
	}{
		{"GET, token in the query", client.Request{Method: http.MethodGet, Path: "/api/pages"}, false, false},
		{"GET settings, both in the query", client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens}, true, false},
		{"PUT, both in a JSON body", client.Request{Method: http.MethodPut, Path: "/api/pages/no-such-page-canary",
			JSON: map[string]any{"title": "x"}, Credentials: client.BothTokens}, true, false},
		{"POST, both in a form body", client.Request{Method: http.MethodPost, Path: "/api/files/..",
			Form: url.Values{"title": {"x"}}, Credentials: client.BothTokens}, true, false},
		{"POST, both in a multipart body", client.Request{Method: http.MethodPost, Path: "/api/files/..",
			Files: []client.File{{Field: "file", Name: "a.txt", MIMEType: "text/plain", Content: []byte("a")}}, Credentials: client.BothTokens}, true, false},
		{"DELETE, both in a JSON body", client.Request{Method: http.MethodDelete, Path: "/api/pages/no-such-page-canary",
			Credentials: client.BothTokens, Placement: client.InBody}, true, false},
		{"GET, a wrong token holding the real one", client.Request{Method: http.MethodGet, Path: "/api/pages", TokenValue: &almost}, false, false},
		{"GET, token in Authorization", client.Request{Method: http.MethodGet, Path: "/api/pages"}, false, true},
		{"PUT, both in headers", client.Request{Method: http.MethodPut, Path: "/api/pages/no-such-page-canary",
			JSON: map[string]any{"title": "x"}, Credentials: client.BothTokens}, true, true},
		{"POST multipart, both in headers", client.Request{Method: http.MethodPost, Path: "/api/files/..",
			Files: []client.File{{Field: "file", Name: "a.txt", MIMEType: "text/plain", Content: []byte("a")}}, Credentials: client.BothTokens}, true, true},
		{"GET, a wrong token holding the real one in Authorization", client.Request{Method: http.MethodGet, Path: "/api/pages",
			TokenValue: &almost}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := clients[client.CredentialsInParams]
			if tc.inHeader {
				c = clients[client.CredentialsInHeader]
			}
			ex := c.Do(t.Context(), tc.req)
			if ex.Err != nil {
				t.Fatalf("request failed: %v", ex.Err)
			}
			line := ex.Curl()
			if f := leaks(line+"\n"+ex.String(), secrets); len(f) > 0 {
				t.Errorf("curl line or exchange leaks %v:\n%s", f, line)
			}
			if !strings.Contains(line, client.TokenPlaceholder) {
				t.Errorf("curl line lacks %s:\n%s", client.TokenPlaceholder, line)
			}
			if tc.wantAuth && !strings.Contains(line, client.AuthTokenPlaceholder) {
				t.Errorf("curl line lacks %s:\n%s", client.AuthTokenPlaceholder, line)
			}
			if tc.req.TokenValue == nil {
				expandsToTokens(t, line, token, auth, tc.wantAuth)
			}
		})
	}
}

// expandsToTokens runs the curl line's arguments through a shell (printf
// instead of curl) with the variables exported and checks that the real
// tokens come out: the line reproduces the request as printed.
func expandsToTokens(t *testing.T, line, token, auth string, wantAuth bool) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to expand the curl line")
	}
	args, ok := strings.CutPrefix(line, "curl ")
	if !ok {
		t.Fatalf("not a curl line: %s", line)
	}
	cmd := exec.Command(sh, "-c", `printf '%s\n' `+args)
	cmd.Env = append(selftest.Environ(), "CONFORMANCE_TOKEN="+token, "CONFORMANCE_AUTH_TOKEN="+auth)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the shell cannot parse the curl line: %v\n%s\n%s", err, line, out)
	}
	if !strings.Contains(string(out), token) {
		t.Errorf("the expanded curl line does not send the API token:\n%s", out)
	}
	if wantAuth && !strings.Contains(string(out), auth) {
		t.Errorf("the expanded curl line does not send the authentication token:\n%s", out)
	}
	if strings.Contains(string(out), "${") {
		t.Errorf("a placeholder did not expand:\n%s", out)
	}
}
