package har_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// Distinctive tokens: any of them in a log is a leak.
const (
	apiToken  = "harTOKEN0123456789abcdef0123456789abcdef0123456789abcdef01234567"
	authToken = "harAUTH89abcdef0123456789abcdef0123456789abcdef0123456789abcdef0"
)

// target answers each kind of body a log must show honestly, most of them
// holding the API token the request carried.
func target(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	json := func(w http.ResponseWriter, status int, body []byte) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}
	mux.HandleFunc("GET /api/small", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1", Path: "/", HttpOnly: true})
		json(w, 200, fmt.Appendf(nil, `{"status":"0","echo":%q}`, r.URL.Query().Get("token")))
	})
	mux.HandleFunc("GET /api/big", func(w http.ResponseWriter, r *http.Request) {
		// 100 KiB, the token at its start and across the log's 64 KiB bound.
		tok := r.URL.Query().Get("token")
		pad := strings.Repeat("x", har.DefaultBodyLimit-len(`{"token":"`)-len(tok)-len(`","data":"`)-10)
		body := `{"token":"` + tok + `","data":"` + pad + tok + strings.Repeat("y", 100<<10-har.DefaultBodyLimit) + `"}`
		json(w, 200, []byte(body))
	})
	mux.HandleFunc("GET /api/binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(binaryBody(r.URL.Query().Get("token")))
	})
	mux.HandleFunc("GET /api/cut", func(w http.ResponseWriter, _ *http.Request) {
		testkit.WriteCut(t, w, 200, http.Header{"Content-Type": {"application/json"}}, bytes.Repeat([]byte("c"), 10<<10), 6000)
	})
	mux.HandleFunc("GET /api/huge", func(w http.ResponseWriter, _ *http.Request) {
		json(w, 200, bytes.Repeat([]byte("h"), 300<<10))
	})
	mux.HandleFunc("GET /api/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example/x", http.StatusFound)
	})
	mux.HandleFunc("POST /api/pages", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		json(w, 201, []byte(`{"status":"0"}`))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// binaryBody is 10 KiB that is not UTF-8, with tok in its middle.
func binaryBody(tok string) []byte {
	b := make([]byte, 10<<10)
	for i := range b {
		b[i] = byte(0x80 + i%0x80)
	}
	copy(b[5000:], tok)
	return b
}

func newClient(t *testing.T, base string, change func(*client.Config)) *client.Client {
	t.Helper()
	cfg := client.Config{BaseURL: base, Token: apiToken, AuthToken: authToken, RequestTimeout: 5 * time.Second,
		MaxBody: 200 << 10, ReadCache: true}
	if change != nil {
		change(&cfg)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// readLog reads a log back into the package's own types.
func readLog(t *testing.T, path string) *har.HAR {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var h har.HAR
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("the log is not JSON: %v", err)
	}
	return &h
}

func writeLog(t *testing.T, name string, write func(io.Writer) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// noTokens fails t if the file at path holds either token, as is or in
// any encoding, also inside a base64 body.
func noTokens(t *testing.T, c *client.Client, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, e := range readLog(t, path).Log.Entries {
		if e.Response.Content.Encoding == "base64" {
			d, err := base64.StdEncoding.DecodeString(e.Response.Content.Text)
			if err != nil {
				t.Errorf("entry #%d: content is not base64: %v", e.Seq, err)
			}
			text += "\n" + string(d)
		}
	}
	for _, tok := range []string{apiToken, authToken} {
		if strings.Contains(text, tok) || strings.Contains(text, tok[10:40]) {
			t.Errorf("%s holds a token", filepath.Base(path))
		}
	}
	if c.Redactor().Finds(text) {
		t.Errorf("%s holds a token in an encoded form", filepath.Base(path))
	}
}

// byPath indexes entries by "METHOD path", the replay as "replay path".
func byPath(t *testing.T, h *har.HAR) map[string]har.Entry {
	t.Helper()
	out := map[string]har.Entry{}
	for _, e := range h.Log.Entries {
		u, err := url.Parse(e.Request.URL)
		if err != nil {
			t.Fatalf("entry #%d: URL %q: %v", e.Seq, e.Request.URL, err)
		}
		key := e.Request.Method + " " + u.Path
		if e.Replayed {
			key = "replay " + u.Path
		}
		if _, dup := out[key]; dup {
			key += " again"
		}
		out[key] = e
	}
	return out
}

// sameTime checks HAR's rule that an entry's time is the sum of its
// timings.
func sameTime(t *testing.T, h *har.HAR) {
	t.Helper()
	for _, e := range h.Log.Entries {
		if sum := e.Timings.Send + e.Timings.Wait + e.Timings.Receive; sum != e.Time || e.Time < 0 {
			t.Errorf("entry #%d: time %v, timings add up to %v", e.Seq, e.Time, sum)
		}
	}
}

var creator = har.Options{Creator: har.Creator{Name: "conformance", Version: "v0.0.0-test"}, Comment: "a test run"}

// A run's log, written by a Recorder after every spec ended, validates,
// holds every exchange once (the replay marked), no token anywhere, and
// says of every body that is not whole why not.
func TestRecorderLogOfEveryKindOfExchange(t *testing.T) {
	ts := target(t)
	c := newClient(t, ts.URL, nil)
	rec := har.Record(c, har.Limits{})
	ctx := t.Context()
	c.SetScope("spec one")
	for _, p := range []string{"/api/small", "/api/small", "/api/big", "/api/binary", "/api/cut", "/api/huge", "/api/redirect"} {
		c.Do(ctx, client.Request{Path: p})
	}
	c.SetScope("spec two")
	c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/api/pages", Form: url.Values{"title": {"a & b"}}, Credentials: client.BothTokens})
	c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/api/pages", Raw: []byte(`{"title":"` + strings.Repeat("t", 3000) + `"}`),
		RawContentType: "application/json"})
	c.SetScope("spec three") // every large body is released now

	path := writeLog(t, "run.har", func(w io.Writer) error { return rec.Write(w, creator) })
	mustValidate(t, path)
	noTokens(t, c, path)
	h := readLog(t, path)
	if h.Log.Version != "1.2" || h.Log.Creator != creator.Creator || !strings.HasPrefix(h.Log.Comment, "a test run\n") || h.Log.Pages == nil {
		t.Errorf("log head: version %q, creator %+v, comment %q, pages %v", h.Log.Version, h.Log.Creator, h.Log.Comment, h.Log.Pages)
	}
	if got, want := len(h.Log.Entries), c.Seq()+1; got != want {
		t.Fatalf("%d entries, want %d (%d requests and one replay)", got, want, c.Seq())
	}
	sameTime(t, h)
	e := byPath(t, h)

	small := e["GET /api/small"]
	if !strings.Contains(small.Response.Content.Text, `"echo":"`+client.TokenPlaceholder+`"`) || small.Response.Content.Truncated ||
		small.Response.Content.Size != len(fmt.Sprintf(`{"status":"0","echo":%q}`, apiToken)) || small.Scope != "spec one" {
		t.Errorf("small answer: %+v", small.Response.Content)
	}
	if q := small.Request.QueryString; len(q) != 1 || q[0] != (har.NameValue{Name: "token", Value: client.TokenPlaceholder}) {
		t.Errorf("query string %+v", q)
	}
	if ck := small.Response.Cookies; len(ck) != 1 || ck[0].Name != "session" || !ck[0].HTTPOnly {
		t.Errorf("response cookies %+v", ck)
	}
	if r := e["replay /api/small"]; !r.Replayed || r.FromCache != "memory" || r.Seq != small.Seq || r.Time != 0 ||
		r.Response.Content.Text != small.Response.Content.Text || !strings.Contains(r.Comment, fmt.Sprintf("#%d", small.Seq)) {
		t.Errorf("replay: %+v", r)
	}

	big := e["GET /api/big"].Response.Content
	if !big.Truncated || len(big.Text) > har.DefaultBodyLimit || len(big.Text) < har.DefaultBodyLimit-100 ||
		!strings.HasPrefix(big.Text, `{"token":"`+client.TokenPlaceholder) || !strings.Contains(big.Comment, "at most 65536") {
		t.Errorf("big answer: %d bytes shown, truncated %v, comment %q", len(big.Text), big.Truncated, big.Comment)
	}
	bin := e["GET /api/binary"].Response.Content
	want := bytes.Replace(binaryBody(apiToken), []byte(apiToken), []byte(client.TokenPlaceholder), 1)
	if got, _ := base64.StdEncoding.DecodeString(bin.Text); bin.Encoding != "base64" || !bytes.Equal(got, want) || bin.Truncated {
		t.Errorf("binary answer: encoding %q, truncated %v, %d bytes decoded", bin.Encoding, bin.Truncated, len(got))
	}
	if cut := e["GET /api/cut"].Response.Content; !cut.Truncated || cut.Size != 6000 || !strings.Contains(cut.Comment, "incomplete") {
		t.Errorf("cut answer: %+v", cut.Comment)
	}
	if huge := e["GET /api/huge"].Response.Content; !huge.Truncated || !strings.Contains(huge.Comment, "read limit") {
		t.Errorf("answer over the read limit: %q", huge.Comment)
	}
	if r := e["GET /api/redirect"].Response; r.Status != 302 || r.RedirectURL != "https://elsewhere.example/x" {
		t.Errorf("redirect: %d to %q", r.Status, r.RedirectURL)
	}

	form := e["POST /api/pages"].Request
	if pd := form.PostData; pd == nil || pd.MimeType != "application/x-www-form-urlencoded" ||
		!strings.Contains(pd.Text, "authentication="+client.AuthTokenPlaceholder) || form.BodySize != -1 ||
		!contains(pd.Params, har.NameValue{Name: "title", Value: "a & b"}) ||
		!contains(pd.Params, har.NameValue{Name: "authentication", Value: client.AuthTokenPlaceholder}) {
		t.Errorf("form body: %+v, size %d", pd, form.BodySize)
	}
	long := e["POST /api/pages again"].Request
	if pd := long.PostData; pd == nil || !pd.Truncated || len(pd.Text) != 2048 || long.BodySize != -1 ||
		!strings.Contains(pd.Comment, "3012 bytes") {
		t.Errorf("long request body: %+v, size %d", pd, long.BodySize)
	}
}

func contains(ps []har.NameValue, p har.NameValue) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// Without a Recorder the log has what the exchanges still hold: a large
// body released at the end of its spec is the client's excerpt, and says
// so.
func TestWriteUsesWhatTheExchangesHold(t *testing.T) {
	ts := target(t)
	c := newClient(t, ts.URL, nil)
	c.Do(t.Context(), client.Request{Path: "/api/big"})
	c.SetScope("next spec")
	path := writeLog(t, "run.har", func(w io.Writer) error { return har.Write(w, c.Since(0), c.Redactor(), creator) })
	mustValidate(t, path)
	noTokens(t, c, path)
	h := readLog(t, path)
	big := h.Log.Entries[0].Response.Content
	if !big.Truncated || len(big.Text) > 4096 || !strings.Contains(big.Comment, "once its spec has ended") {
		t.Errorf("released body: %d bytes shown, comment %q", len(big.Text), big.Comment)
	}
}

// Requests that got no answer are entries with status 0 and the reason,
// as browsers export failed requests: refused by the read-only guard
// (never sent), and refused by the target's host (sent).
func TestRequestsWithoutAnswer(t *testing.T) {
	ts := target(t)
	ro := newClient(t, ts.URL, func(c *client.Config) { c.ReadOnly = true })
	refused := newClient(t, testkit.RefusedURL(t), nil)
	exs := []*client.Exchange{
		ro.Do(t.Context(), client.Request{Method: http.MethodPost, Path: "/api/pages", JSON: map[string]any{"title": "x"}}),
		refused.Do(t.Context(), client.Request{Path: "/api/pages"}),
	}
	path := writeLog(t, "run.har", func(w io.Writer) error { return har.Write(w, exs, ro.Redactor(), creator) })
	mustValidate(t, path)
	noTokens(t, ro, path)
	h := readLog(t, path)
	sameTime(t, h)
	e := byPath(t, h)
	if u := e["POST /api/pages"]; !u.Unsent || u.Response.Status != 0 || !strings.Contains(u.Response.Error, "read-only") ||
		!strings.HasPrefix(u.Comment, "not sent: ") || u.Time != 0 {
		t.Errorf("refused write: %+v", u)
	}
	if r := e["GET /api/pages"]; r.Unsent || r.Response.Status != 0 || r.Response.Error == "" ||
		!strings.HasPrefix(r.Comment, "no answer: ") || r.Response.BodySize != -1 {
		t.Errorf("refused connection: %+v", r)
	}
}

// A Recorder's memory is bounded: at most Limits.Body of each body and
// Limits.Total in all; the bodies past the bound get the client's excerpt,
// and the log says why.
func TestRecorderKeepsWithinItsBounds(t *testing.T) {
	ts := target(t)
	c := newClient(t, ts.URL, func(c *client.Config) { c.ReadCache = false })
	rec := har.Record(c, har.Limits{Body: 16 << 10, Total: 40 << 10})
	for range 5 {
		c.Do(t.Context(), client.Request{Path: "/api/big"})
	}
	c.SetScope("next spec")
	h := rec.Build(c.Since(0), creator)
	kept, excerpts := 0, 0
	for _, e := range h.Log.Entries {
		ct := e.Response.Content
		switch {
		case len(ct.Text) == 16<<10 && strings.Contains(ct.Comment, "at most 16384"):
			kept++
		case len(ct.Text) <= 4096 && strings.Contains(ct.Comment, "bound for a run"):
			excerpts++
		default:
			t.Errorf("entry #%d: %d bytes shown, comment %q", e.Seq, len(ct.Text), ct.Comment)
		}
	}
	if kept != 2 || excerpts != 3 {
		t.Errorf("%d bodies kept in part and %d as excerpts, want 2 (40 KiB / 16 KiB) and 3", kept, excerpts)
	}
}

// nothingFold keeps nothing of a streamed answer's items.
type nothingFold struct{}

func (nothingFold) Item([]byte)         {}
func (nothingFold) Value() (any, int64) { return true, 0 }

// TestStreamedBodyShowsItsStart: an answer read as a stream (a big
// listing) is shown by its start as received, with a comment saying so,
// never by the envelope the client kept of it.
func TestStreamedBodyShowsItsStart(t *testing.T) {
	ts := target(t)
	c := newClient(t, ts.URL, nil)
	ex := c.Do(t.Context(), client.Request{Path: "/api/big", Stream: &client.Stream{Path: "data", New: func() client.Fold { return nothingFold{} }}})
	if ex.Body() == nil {
		t.Fatalf("no body kept: %v", ex.Err)
	}
	path := writeLog(t, "run.har", func(w io.Writer) error { return har.Write(w, c.Since(0), c.Redactor(), creator) })
	mustValidate(t, path)
	noTokens(t, c, path)
	got := readLog(t, path).Log.Entries[0].Response.Content
	if !got.Truncated || !strings.HasPrefix(got.Text, `{"token":"`) || !strings.Contains(got.Comment, "read as a stream") {
		t.Errorf("streamed body: %d bytes shown from %.20q, comment %q", len(got.Text), got.Text, got.Comment)
	}
}
