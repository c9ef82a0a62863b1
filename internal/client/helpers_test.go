package client

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Distinctive token values: any of them in an output is a leak.
const (
	testToken = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
	testAuth  = "feedfacecafebeef0123456789abcdeffeedfacecafebeef0123456789abcdef"
)

// seen is one request as a test server received it.
type seen struct {
	Method      string
	RequestURI  string
	Path        string // decoded
	Query       url.Values
	ContentType string
	Body        []byte
	// Fields are the body's parameters: JSON object members (as strings),
	// form fields, multipart text fields.
	Fields map[string]string
	Files  map[string]string // multipart file parts: field -> file name
	Header http.Header
}

// recorder is a test server that records every request and answers with
// its handler (200 {"status":"0","message":"ok"} by default).
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newRecorder(t *testing.T, h http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	if h == nil {
		h = func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":"0","message":"ok"}`)
		}
	}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(t, r)
		h(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) add(t *testing.T, r *http.Request) {
	s := seen{Method: r.Method, RequestURI: r.RequestURI, Path: r.URL.Path, Query: r.URL.Query(),
		ContentType: r.Header.Get("Content-Type"), Fields: map[string]string{}, Files: map[string]string{}, Header: r.Header.Clone()}
	mt, _, _ := mime.ParseMediaType(s.ContentType)
	switch mt {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			t.Errorf("multipart body: %v", err)
		}
		for k, v := range r.MultipartForm.Value {
			s.Fields[k] = v[0]
		}
		for k, fh := range r.MultipartForm.File {
			s.Files[k] = fh[0].Filename
		}
	case "application/x-www-form-urlencoded":
		b, _ := io.ReadAll(r.Body)
		s.Body = b
		form, err := url.ParseQuery(string(b))
		if err != nil {
			t.Errorf("form body: %v", err)
		}
		for k, v := range form {
			s.Fields[k] = v[0]
		}
	default:
		b, _ := io.ReadAll(r.Body)
		s.Body = b
		if mt == "application/json" && len(b) > 0 {
			var obj map[string]any
			if err := json.Unmarshal(b, &obj); err != nil {
				t.Errorf("JSON body %q: %v", b, err)
			}
			for k, v := range obj {
				if str, ok := v.(string); ok {
					s.Fields[k] = str
				} else {
					raw, _ := json.Marshal(v)
					s.Fields[k] = string(raw)
				}
			}
		}
	}
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, s)
	rec.mu.Unlock()
}

func (rec *recorder) requests() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]seen(nil), rec.reqs...)
}

func (rec *recorder) count() int { return len(rec.requests()) }

// last returns the last request, failing the test if there was none.
func (rec *recorder) last(t *testing.T) seen {
	t.Helper()
	reqs := rec.requests()
	if len(reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return reqs[len(reqs)-1]
}

// newClient builds a client for base with the test tokens; change adjusts
// the configuration.
func newClient(t *testing.T, base string, change func(*Config)) *Client {
	t.Helper()
	cfg := Config{BaseURL: base, Token: testToken, AuthToken: testAuth, RequestTimeout: 5 * time.Second}
	if change != nil {
		change(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// assertNoSecrets fails if s holds a test token or a recognisable piece
// of one.
func assertNoSecrets(t *testing.T, where, s string) {
	t.Helper()
	for _, tok := range []string{testToken, testAuth} {
		if strings.Contains(s, tok[:12]) || strings.Contains(s, tok[len(tok)-12:]) {
			t.Errorf("%s leaks a token:\n%s", where, s)
		}
	}
}

func ptr(s string) *string { return &s }
