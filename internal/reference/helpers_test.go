package reference

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

const (
	testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	testAuth  = "fedcba9876543210fedcba9876543210"
	// editorAuth is the fixture editor's token: a valid user, not an admin.
	editorAuth = "e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3"
	base       = "http://example.com"
)

// fixedNow is the test clock: after every fixture date except the
// scheduled page (2099).
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// inFiles, set by -in-files, runs the servers of newServer in the file
// mode (Options.StorageDir), without pauses: every test of the package
// then shows that the file mode answers as the memory does
// (TestFileModeAnswersTheSame checks that for every switch in any case).
var inFiles = flag.Bool("in-files", false, "serve the tests' reference servers from index files (Options.StorageDir)")

func newServer(t testing.TB, mutants ...Mutant) *Server {
	t.Helper()
	opts := Options{Token: testToken, AuthToken: testAuth, Mutants: mutants, Now: func() time.Time { return fixedNow }}
	if *inFiles {
		opts.StorageDir, opts.StorageWorkTime, opts.StorageChunkPause = t.TempDir(), -1, -1
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// req describes one request. Tokens are added where the method carries
// them: the query for GET and DELETE, the body for POST and PUT.
type req struct {
	method, path string
	query        url.Values     // extra query parameters
	json         map[string]any // JSON body
	form         url.Values     // form body
	file         *filePart      // multipart body with this file part
	fields       map[string]string
	raw          string // raw body (with contentType)
	contentType  string
	noToken      bool        // send no token
	token        string      // token to send instead of the valid one
	auth         bool        // send the valid authentication token
	authValue    string      // authentication value to send instead
	tokensInBody bool        // DELETE: send the tokens in a JSON body
	origin       string      // Origin header, none when empty
	header       http.Header // extra request headers
}

type filePart struct {
	field, name string
	data        []byte
}

type result struct {
	code   int
	header http.Header
	body   []byte
}

// obj decodes the body as a JSON object (nil when it is not one).
func (r result) obj() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.body, &m) != nil {
		return nil
	}
	return m
}

func (r result) data() map[string]any {
	m, _ := r.obj()["data"].(map[string]any)
	return m
}

func (r result) list() []any {
	l, _ := r.obj()["data"].([]any)
	return l
}

func (r result) meta() map[string]any {
	m, _ := r.obj()["meta"].(map[string]any)
	return m
}

func (q req) tokens() map[string]string {
	m := map[string]string{}
	if !q.noToken {
		m["token"] = testToken
		if q.token != "" {
			m["token"] = q.token
		}
	}
	if q.auth {
		m["authentication"] = testAuth
	}
	if q.authValue != "" {
		m["authentication"] = q.authValue
	}
	return m
}

func (q req) build(t testing.TB) *http.Request {
	t.Helper()
	method := q.method
	if method == "" {
		method = http.MethodGet
	}
	// A query in the path joins the query parameters.
	path, rawQuery, _ := strings.Cut(q.path, "?")
	query, _ := url.ParseQuery(rawQuery)
	for k, vs := range q.query {
		query[k] = append(query[k], vs...)
	}
	toks := q.tokens()
	var body io.Reader
	ct := q.contentType
	inBody := method == http.MethodPost || method == http.MethodPut || q.tokensInBody
	switch {
	case q.raw != "":
		body = strings.NewReader(q.raw)
	case q.file != nil || q.fields != nil:
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for k, v := range toks {
			_ = mw.WriteField(k, v)
		}
		keys := make([]string, 0, len(q.fields))
		for k := range q.fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			_ = mw.WriteField(k, q.fields[k])
		}
		if q.file != nil {
			fw, _ := mw.CreateFormFile(q.file.field, q.file.name)
			_, _ = fw.Write(q.file.data)
		}
		_ = mw.Close()
		body, ct = &buf, mw.FormDataContentType()
		inBody = true
	case q.form != nil:
		f := url.Values{}
		for k, vs := range q.form {
			f[k] = append([]string(nil), vs...)
		}
		for k, v := range toks {
			f.Set(k, v)
		}
		body, ct = strings.NewReader(f.Encode()), "application/x-www-form-urlencoded"
		inBody = true
	case q.json != nil || inBody:
		m := map[string]any{}
		for k, v := range q.json {
			m[k] = v
		}
		if inBody {
			for k, v := range toks {
				m[k] = v
			}
		}
		b, _ := json.Marshal(m)
		body, ct = bytes.NewReader(b), "application/json"
	}
	if !inBody {
		for k, v := range toks {
			query.Set(k, v)
		}
	}
	target := path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	r := httptest.NewRequest(method, target, body)
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	if q.origin != "" {
		r.Header.Set("Origin", q.origin)
	}
	for k, vs := range q.header {
		r.Header[k] = vs
	}
	return r
}

func call(t testing.TB, s *Server, q req) result {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, q.build(t))
	return result{code: w.Code, header: w.Header(), body: w.Body.Bytes()}
}

func get(t testing.TB, s *Server, path string, kv ...string) result {
	t.Helper()
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return call(t, s, req{path: path, query: q})
}

func sendJSON(t testing.TB, s *Server, method, path string, body map[string]any) result {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return call(t, s, req{method: method, path: path, json: body, auth: true})
}

func sendForm(t testing.TB, s *Server, method, path string, kv ...string) result {
	t.Helper()
	f := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return call(t, s, req{method: method, path: path, form: f, auth: true})
}

func expectCode(t testing.TB, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("status %d, want %d; body %s", r.code, code, r.body)
	}
}

// keysOf returns the keys of the page objects in a list.
func keysOf(items []any) []string {
	var out []string
	for _, it := range items {
		m, _ := it.(map[string]any)
		k, _ := m["key"].(string)
		out = append(out, k)
	}
	return out
}

var (
	hex32        = regexp.MustCompile(`[0-9a-f]{32}`)
	fixtureUUIDs = func() map[string]bool {
		m := map[string]bool{}
		seed, err := fixtures.Load()
		if err != nil {
			panic(err)
		}
		for _, p := range seed.Pages {
			m[p.UUID] = true
		}
		return m
	}()
	sorted = func(s []string) []string { s = append([]string(nil), s...); sort.Strings(s); return s }
)

// fingerprint is a deterministic summary of a response: status, headers
// and body, with random identifiers blanked.
func fingerprint(r result) string {
	var names []string
	for k, v := range r.header {
		if k == "X-Request-Id" {
			names = append(names, k)
			continue
		}
		names = append(names, k+"="+strings.Join(v, ","))
	}
	sort.Strings(names)
	return strings.Join([]string{http.StatusText(r.code), strings.Join(names, ";"), blankUUIDs(string(r.body))}, "\n")
}

// blankUUIDs replaces every uuid but the fixtures' with <uuid>.
func blankUUIDs(s string) string {
	return hex32.ReplaceAllStringFunc(s, func(u string) string {
		if fixtureUUIDs[u] {
			return u
		}
		return "<uuid>"
	})
}

// switchCase is the precise change of a switch: requests sent in order to
// one fresh server with the switch on, and the check of their answers.
type switchCase struct {
	mutant Mutant
	what   string
	probe  []req
	check  func(rs []result) bool
}

// runSwitchCases runs each case as a subtest; a case whose check fails
// prints every answer.
func runSwitchCases(t *testing.T, cases []switchCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(string(c.mutant)+"/"+c.what, func(t *testing.T) {
			rs := runProbe(t, newServer(t, c.mutant), c.probe)
			if !c.check(rs) {
				for i, r := range rs {
					t.Errorf("%s %s: %d %v %s", c.probe[i].method, c.probe[i].path, r.code, r.header, r.body)
				}
			}
		})
	}
}
