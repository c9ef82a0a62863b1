// Package rulestest crafts answers for the tests of the rules packages:
// each is served by a loopback server and fetched with the run's client,
// as the normal run and conformance explore fetch answers (an exchange's
// body is the client's to keep). Only tests import it.
package rulestest

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
)

// Reply is a crafted answer: a status, a body, and the headers every
// answer of the API carries (JSON, any origin, no cache) unless Header
// replaces one ("" leaves it out).
type Reply struct {
	Status int
	Body   string
	Header map[string]string
}

// The tokens the crafted answers are fetched with: long enough to be
// searched for in answers (as a real run's are).
const (
	APIToken  = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
	AuthToken = "f9e8d7c6b5a40312f9e8d7c6b5a40312f9e8d7c6b5a40312f9e8d7c6b5a40312"
)

// conformingHeaders are the headers of sections 1 and 5.9.
var conformingHeaders = map[string]string{
	"Content-Type":                "application/json",
	"Access-Control-Allow-Origin": "*",
	"Cache-Control":               "no-store, no-cache, must-revalidate",
}

// Send serves r on a loopback port and fetches it with req (GET
// /api/pages when its method or path is empty).
func Send(t testing.TB, r Reply, req client.Request) *client.Exchange {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := maps.Clone(conformingHeaders)
		maps.Copy(h, r.Header)
		for k, v := range h {
			if v != "" {
				w.Header().Set(k, v)
			}
		}
		w.WriteHeader(r.Status)
		_, _ = w.Write([]byte(r.Body))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: APIToken, AuthToken: AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if req.Path == "" {
		req.Path = "/api/pages"
	}
	ex := c.Do(t.Context(), req)
	if ex.Status != r.Status {
		t.Fatalf("the crafted answer did not arrive: %s", ex)
	}
	return ex
}

// Get serves r and fetches it with a GET of /api/pages.
func Get(t testing.TB, r Reply) *client.Exchange { return Send(t, r, client.Request{}) }

// OK is a conforming 200 whose data is data (JSON).
func OK(data string) Reply {
	return Reply{Status: http.StatusOK, Body: `{"status":"0","message":"ok","data":` + data + `}`}
}

// HandlerError is a conforming handler error (7, body shape 1).
func HandlerError(status int) Reply {
	return Reply{Status: status, Body: `{"status":"1","message":"no"}`}
}

// EarlyError is a conforming early error (7, body shape 2).
func EarlyError(status int) Reply { return Reply{Status: status, Body: `{"message":"no"}`} }

// JSON is v as JSON text.
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Page is a page object of section 2.1 whose key is key and type typ,
// with the changes given (a nil value removes the field).
func Page(key, typ string, change map[string]any) map[string]any {
	p := map[string]any{
		"key": key, "uuid": "u-" + key, "title": "T", "description": "D", "type": typ, "slug": key[strings.LastIndex(key, "/")+1:],
		"content": "<p>C</p>", "contentRaw": "C", "date": "2001-02-03 04:05:06", "dateRaw": "2001-02-03 04:05:06",
		"dateUTC": "2001-02-03 04:05:06", "tags": map[string]any{}, "username": "admin", "category": "",
		"permalink": "http://example.org/" + key, "coverImage": false, "coverImageFilename": false,
	}
	maps.Copy(p, change)
	for k, v := range change {
		if v == nil {
			delete(p, k)
		}
	}
	return p
}
