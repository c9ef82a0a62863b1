package auth

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerReads: spec 5.1. The nine read endpoints (every GET but
// settings) answer with the API token alone.
func registerReads(t *framework.Fixture) {
	Describe("5.1 Read endpoints need only the API token", func() {
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet || ep.NeedsAuth() {
				continue
			}
			t.It("AUTH-READ-TOKEN-ONLY", func(ctx SpecContext) {
				ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: Discover(ctx, t, ep), Credentials: client.APIToken})
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			}, framework.Case(string(ep)), ep)
		}
	})
}

// registerUnknownEndpoints: spec 7. An unknown endpoint, or a known path
// with a method the spec does not give it, answers 401 (with a valid API
// token, so no token error can come first). The methods sent cannot change
// anything on a server that refuses them, and the requests carry no
// authentication token, so they are probes.
func registerUnknownEndpoints(t *framework.Fixture) {
	Describe("7 Unknown endpoints", func() {
		cases := []struct{ method, path string }{
			{http.MethodGet, "/api/nonexistent"},
			{http.MethodGet, "/api/" + t.Marker("endpoint")},
			{http.MethodPatch, "/api/pages"},
			{http.MethodDelete, "/api/pages"},
			{http.MethodPut, "/api/tags"},
			{http.MethodPost, client.KeyPath("pages", t.Marker("no-such-page"))},
		}
		for _, c := range cases {
			t.It("AUTH-UNKNOWN-ENDPOINT-401", func(ctx SpecContext) {
				ex := t.Client.Do(ctx, UnknownEndpointRequest(t, c.method, c.path))
				if c.method == http.MethodPatch {
					// The spec does not say where a PATCH carries the token,
					// so a server that reads none may answer as for a missing
					// token (see the rule's Reading).
					Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized, http.StatusBadRequest))
					return
				}
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
			}, framework.Case(c.method+" "+c.path))
		}
	})
}

// UnknownEndpointRequest is a request to a path or method the spec does not
// list, with the API token where the spec puts it for the method (the query
// string for methods the spec does not place it for) and harmless input. A
// body is a run-marked draft, so that a broken server that took it for a
// create would make a page the sweep and `conformance cleanup` can find.
func UnknownEndpointRequest(t *framework.Fixture, method, path string) client.Request {
	r := client.Request{Method: method, Path: path, Credentials: client.APIToken, Probe: true}
	switch method {
	case http.MethodPost, http.MethodPut:
		r.JSON = map[string]any{"title": "Conformance probe " + t.RunID, "slug": t.Marker("unknown-endpoint-probe"), "type": "draft"}
	default:
		r.Query, r.Placement = url.Values{"x": {"1"}}, client.InQuery
	}
	return r
}

// Discover returns the path of a real resource of a read endpoint: the
// endpoint's path itself for lists, and for single resources a key that a
// list endpoint names (a page the run creates when the target has none and
// writes are allowed). Without one the spec is not checked.
func Discover(ctx context.Context, t *framework.Fixture, ep spec.Endpoint) string {
	list := map[spec.Endpoint]string{spec.GetPage: "pages", spec.ListFiles: "pages", spec.GetTag: "tags",
		spec.GetCategory: "categories", spec.GetUser: "users"}[ep]
	if list == "" {
		return ep.Path()
	}
	var query url.Values
	if list == "pages" {
		// Pages of every type: a site may have no published page.
		query = url.Values{}
		for _, ty := range []string{"published", "static", "sticky", "draft", "scheduled"} {
			query.Set(ty, "true")
		}
	}
	ex := t.Read(ctx, "/api/"+list, query)
	if ex.Err != nil || ex.Status != http.StatusOK {
		framework.NotChecked("GET /api/%s answered HTTP %d, so no %s key could be found to read", list, ex.Status, list)
	}
	key := ""
	if list == "users" {
		// data is an object keyed by username (spec 4.8).
		ex.Get("data").ForEach(func(k, _ gjson.Result) bool { key = k.String(); return false })
	} else {
		for _, p := range ex.Get("data").Array() {
			k := p.Get("key").String()
			// 4.2 allows a hierarchical key for a page; 4.11 does not say
			// which page files/parent/child names (or that it is an
			// endpoint at all), so the files endpoint gets a plain key.
			if k != "" && (ep != spec.ListFiles || !strings.Contains(k, "/")) {
				key = k
				break
			}
		}
	}
	if key == "" && list == "pages" && t.CanWrite() {
		_, key = t.CreatePage(ctx, nil)
	}
	if key == "" {
		framework.NotChecked("the target has no %s to read (GET /api/%s lists none)", list, list)
	}
	endpoint := list
	if ep == spec.ListFiles {
		endpoint = "files"
	}
	return client.KeyPath(endpoint, key)
}
