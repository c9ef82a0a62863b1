// Package frameworktest is what the `go test` runs of suite packages stand
// on: a Fixture on the built-in reference server on a loopback port (or the
// server named by CONFORMANCE_BASE_URL / CONFORMANCE_TOKEN /
// CONFORMANCE_AUTH_TOKEN), snapshots of a target's content to prove a run
// left no trace, and second runs in child processes (a read-only run, a run
// against a broken server), since RunSpecs runs once per process.
package frameworktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// Fixture returns a fixture for tb, with writes and settings writes allowed
// against the reference server (fresh state per call).
func Fixture(tb testing.TB) *framework.Fixture {
	tb.Helper()
	t, _ := build(tb)
	return t
}

// FixtureAndSnapshot returns Fixture(tb) and a function that snapshots the
// content of the same server (see Snapshot) through a read-only client of
// its own, so that the run's exchanges, reports and cross-cutting checks
// see nothing of it. A leave-no-trace test takes one snapshot before
// RunSpecs and one after, and compares them.
func FixtureAndSnapshot(tb testing.TB) (*framework.Fixture, func(context.Context) (Snapshot, error)) {
	tb.Helper()
	t, cfg := build(tb)
	c, err := client.New(client.Config{BaseURL: cfg.BaseURL, Token: cfg.Token, ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	return t, func(ctx context.Context) (Snapshot, error) { return TakeSnapshot(ctx, c) }
}

// Reference serves a fresh reference server with the given mutants on a
// loopback port until tb ends, and returns the configuration of a client
// with both of its tokens.
func Reference(tb testing.TB, mutants ...reference.Mutant) client.Config {
	tb.Helper()
	ref := testkit.Reference(tb, mutants...)
	return client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken}
}

func build(tb testing.TB) (*framework.Fixture, client.Config) {
	tb.Helper()
	cfg := client.Config{BaseURL: os.Getenv("CONFORMANCE_BASE_URL"), Token: os.Getenv("CONFORMANCE_TOKEN"), AuthToken: os.Getenv("CONFORMANCE_AUTH_TOKEN")}
	opts := framework.Options{}
	if cfg.BaseURL == "" {
		cfg = Reference(tb)
		opts.SettingsWrites = true
	}
	cfg.ReadOnly = cfg.AuthToken == ""
	opts.ReadOnly = cfg.ReadOnly
	// As a run of the CLI does by default: suite tests, leave-no-trace
	// ones included, prove the suite with the read cache and batches on.
	cfg.ReadCache, opts.Concurrency = true, client.DefaultConcurrency
	cfg.MaxInFlight = opts.Concurrency
	c, err := client.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return framework.New(c, opts), cfg
}

// Snapshot is the content of a target as its read endpoints show it: each
// entry names a request, or one item of a list response ("GET /api/tags
// item news"), and holds that data as canonical JSON (object members
// sorted), so that a difference names the page, tag or category it is in.
type Snapshot map[string]string

// TakeSnapshot reads every page (the list with all five type filters and
// numberOfItems=-1, then GET of each key), the tag and category lists, and,
// when the client has the authentication token, the settings.
func TakeSnapshot(ctx context.Context, c *client.Client) (Snapshot, error) {
	s := Snapshot{}
	canon := func(v any) string {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v) // maps encode with sorted keys
		return strings.TrimSpace(b.String())
	}
	get := func(path string, q url.Values) (any, error) {
		ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: path, Query: q})
		if ex.Err != nil {
			return nil, ex.Err
		}
		if ex.Status != http.StatusOK || !ex.IsJSON() || ex.Truncated {
			return nil, fmt.Errorf("GET %s answered HTTP %d: %s", path, ex.Status, ex.BodyExcerpt())
		}
		var body struct {
			Data any `json:"data"`
		}
		if err := json.Unmarshal(ex.Body(), &body); err != nil {
			return nil, fmt.Errorf("GET %s: %w", path, err)
		}
		return body.Data, nil
	}
	// list snapshots a list response item by item, keyed by each item's
	// key, plus the order of the keys; it returns the keys.
	list := func(path string, q url.Values) ([]string, error) {
		data, err := get(path, q)
		if err != nil {
			return nil, err
		}
		items, ok := data.([]any)
		if !ok {
			return nil, fmt.Errorf("GET %s: data is not an array", path)
		}
		var keys []string
		for i, it := range items {
			key, _ := it.(map[string]any)["key"].(string)
			if key == "" {
				key = fmt.Sprintf("#%d", i)
			}
			keys = append(keys, key)
			s["GET "+path+" item "+key] = canon(it)
		}
		s["GET "+path+" keys"] = canon(keys)
		return keys, nil
	}
	keys, err := list("/api/pages", marker.AllPagesQuery())
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		path := client.KeyPath("pages", k)
		data, err := get(path, nil)
		if err != nil {
			return nil, err
		}
		s["GET "+path] = canon(data)
	}
	for _, path := range []string{"/api/tags", "/api/categories"} {
		if _, err := list(path, nil); err != nil {
			return nil, err
		}
	}
	if c.HasAuth() {
		// Settings need both tokens; a read-only client cannot see them.
		ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens})
		if ex.Err != nil || ex.Status != http.StatusOK {
			return nil, fmt.Errorf("GET /api/settings answered HTTP %d: %v %s", ex.Status, ex.Err, ex.BodyExcerpt())
		}
		var body struct {
			Data any `json:"data"`
		}
		if err := json.Unmarshal(ex.Body(), &body); err != nil {
			return nil, fmt.Errorf("GET /api/settings: %w", err)
		}
		s["GET /api/settings"] = canon(body.Data)
	}
	return s, nil
}

// Diff lists how after differs from s: requests only one of them has, and
// data that changed.
func (s Snapshot) Diff(after Snapshot) []string {
	var out []string
	for k, v := range s {
		switch w, ok := after[k]; {
		case !ok:
			out = append(out, fmt.Sprintf("gone: %s (was %s)", k, v))
		case w != v:
			out = append(out, fmt.Sprintf("changed: %s\n    before: %s\n    after:  %s", k, v, w))
		}
	}
	for k, w := range after {
		if _, ok := s[k]; !ok {
			out = append(out, fmt.Sprintf("new: %s (%s)", k, w))
		}
	}
	sort.Strings(out)
	return out
}

// RunSuite is the whole `go test` entry of a suite package that needs no
// checks around its run: a target, the suite-wide nodes, the area's specs,
// RunSpecs.
func RunSuite(t *testing.T, area string, register func(*framework.Fixture)) {
	t.Helper()
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := Fixture(t)
	framework.Install(target)
	register(target)
	ginkgo.RunSpecs(t, area)
}

// RunChild runs the test named test of this test binary again, in a child
// process with environment variable env set to "1" (RunSpecs runs once per
// process, so a second run of a suite needs a process of its own), and
// fails t with the end of the child's output if the child fails. The test
// named test checks env to know it is the child.
func RunChild(t *testing.T, test, env, what string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) > maxChildOutput {
			out = out[len(out)-maxChildOutput:]
		}
		t.Fatalf("%s failed (%v):\n%s", what, err, out)
	}
}

// maxChildOutput bounds the child output a failing RunChild shows.
const maxChildOutput = 6000

// ReadOnlyRun runs the specs register adds as a --read-only run given the
// authentication token does, against a fresh reference server, and fails t
// if a request other than a GET carried the authentication token, or if a
// spec not marked as writing tried to write (the read-only client refuses
// it). It calls RunSpecs: run it in a child process (RunChild).
func ReadOnlyRun(t *testing.T, description string, register ...func(*framework.Fixture)) {
	t.Helper()
	cfg := Reference(t)
	cfg.ReadOnly = true
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bad []string
	c.OnExchange(func(ex *client.Exchange) {
		refused := errors.Is(ex.Err, client.ErrReadOnly)
		carriesAuth := strings.Contains(ex.URL, client.AuthTokenPlaceholder) || strings.Contains(ex.RequestBody, client.AuthTokenPlaceholder)
		if ex.Method == http.MethodGet || (!refused && !carriesAuth) {
			return
		}
		why := "carried the authentication token"
		if refused {
			why = "was refused by the read-only client: its spec writes without being marked Writes"
		}
		mu.Lock()
		defer mu.Unlock()
		bad = append(bad, fmt.Sprintf("%s %s (spec %q)", ex.RequestLine(), why, ex.Scope))
	})
	target := framework.New(c, framework.Options{ReadOnly: true})
	gomega.RegisterFailHandler(ginkgo.Fail)
	framework.Install(target)
	for _, r := range register {
		r(target)
	}
	ginkgo.RunSpecs(t, description)
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Errorf("in a read-only run %d write request(s) went wrong:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
}
