// Package probe builds the requests several suites send: a real resource
// to read on each read endpoint, requests that must be refused, and what
// to do should a broken server carry them out anyway.
package probe

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Probe is a request to one endpoint that names no real resource: keys and
// usernames carry the run marker, so they exist on no target.
type Probe struct {
	t        *framework.Fixture
	Endpoint spec.Endpoint
	Path     string
	// Slug is the run-marked slug a create probe asks for.
	Slug string
	// File is the run-marked name of an upload probe's file.
	File string
	// Safe: the request cannot change the target even if the server wrongly
	// carries it out (it addresses a page that does not exist).
	Safe bool
}

// New builds the probe of ep; name tells apart the markers of the
// specs that probe the same endpoint.
func New(t *framework.Fixture, ep spec.Endpoint, name string) Probe {
	p := Probe{t: t, Endpoint: ep, Path: ep.Path(), Safe: true}
	missing := t.Marker("no-such-" + name)
	switch ep {
	case spec.GetPage, spec.EditPage, spec.DeletePage:
		p.Path = client.KeyPath("pages", missing)
	case spec.GetTag:
		p.Path = client.KeyPath("tags", missing)
	case spec.GetCategory:
		p.Path = client.KeyPath("categories", missing)
	case spec.GetUser:
		p.Path = client.KeyPath("users", missing)
	case spec.ListFiles:
		p.Path = client.KeyPath("files", missing)
	case spec.UploadFile:
		p.Path, p.File = client.KeyPath("files", missing), t.Marker(name)+".txt"
	case spec.CreatePage:
		p.Slug, p.Safe = t.Marker("refused-"+name), false
	case spec.UploadImage:
		p.File, p.Safe = t.Marker(name)+".png", false
	case spec.EditSettings:
		p.Safe = false
	}
	return p
}

// EndpointName is a marker-safe name of an endpoint, for the names of its
// probes: "put-pages-key".
func EndpointName(ep spec.Endpoint) string {
	p := strings.NewReplacer("/api/", "", "/", "-", "{", "", "}", "").Replace(ep.Path())
	return strings.ToLower(ep.Method()) + "-" + p
}

// Decorators are the t.It arguments the probe needs: its endpoint label,
// and framework.Writes or SettingsWrites when a wrongly accepted request would change
// the target (read-only runs then skip the spec).
func (p Probe) Decorators() []any {
	args := []any{p.Endpoint}
	switch {
	case p.Endpoint == spec.EditSettings:
		args = append(args, framework.SettingsWrites)
	case !p.Safe:
		args = append(args, framework.Writes)
	}
	return args
}

// NamesMissingPage reports whether the probe names a page that does not
// exist (edit, delete, file upload).
func (p Probe) NamesMissingPage() bool {
	return p.Endpoint == spec.EditPage || p.Endpoint == spec.DeletePage || p.Endpoint == spec.UploadFile
}

// Request is the probe with harmless input besides any tokens (a request
// with no input at all may be refused for that reason first, as the
// previous release does). The caller sets the credentials.
func (p Probe) Request() client.Request {
	r := client.Request{Method: p.Endpoint.Method(), Path: p.Path, Probe: p.Safe}
	switch p.Endpoint {
	case spec.CreatePage:
		r.JSON = map[string]any{"slug": p.Slug, "title": "Conformance probe " + p.Slug, "type": "draft"}
	case spec.EditPage:
		r.JSON = map[string]any{"description": "conformance probe"}
	case spec.EditSettings:
		// No settings field: even a server that wrongly carries the request
		// out has nothing to change. The tokens are the input.
	case spec.UploadImage:
		r.Files = []client.File{{Field: "image", Name: p.File, MIMEType: "image/png", Content: match.TinyPNG()}}
	case spec.UploadFile:
		r.Files = []client.File{{Field: "file", Name: p.File, MIMEType: "text/plain", Content: []byte("conformance probe\n")}}
	default: // GET and DELETE
		r.Query = url.Values{"x": {"1"}}
	}
	return r
}

// WithoutAPIToken is the probe's request without the API token. When the
// endpoint needs the authentication token and the run may send it (a
// read, or a run that may write), the valid one goes along, so the API
// token is the only thing missing (onlyToken). Otherwise (read-only runs,
// on write endpoints) the request carries neither token: 5.5 (401) and
// 5.6 (400) both describe it.
func (p Probe) WithoutAPIToken() (r client.Request, onlyToken bool) {
	r = p.Request()
	switch {
	case !p.Endpoint.NeedsAuth():
		r.Credentials = client.NoTokens
		return r, true
	case p.authGoesAlong():
		r.Credentials, r.TokenValue = client.BothTokens, new(string)
		return r, true
	}
	r.Credentials = client.NoTokens
	return r, false
}

// WithWrongAPIToken is the probe's request with a well-formed wrong API
// token, and the valid authentication token where WithoutAPIToken sends
// it, so that the API token is the only thing wrong.
func (p Probe) WithWrongAPIToken() client.Request {
	r := p.Request()
	r.Credentials, r.TokenValue = client.APIToken, WrongToken(p.t.Client.Token())
	if p.Endpoint.NeedsAuth() && p.authGoesAlong() {
		r.Credentials = client.BothTokens
	}
	return r
}

// authGoesAlong reports whether a request of the probe may carry the
// valid authentication token beside a missing or wrong API token: the run
// has it, and the request is a read or the run may write.
func (p Probe) authGoesAlong() bool {
	return p.t.Client.HasAuth() && (p.Endpoint.Method() == http.MethodGet || p.t.CanWrite())
}

// WrongToken returns a well-formed token (64 hexadecimal characters, the
// spec's format) that differs from real, so only its value is wrong.
func WrongToken(real string) *string {
	v := strings.Repeat("0", 64)
	if v == real {
		v = strings.Repeat("f", 64)
	}
	return &v
}

// Send sends r (built from the probe) and takes responsibility for anything
// a wrongly accepted request made: a created page is deleted at the end of
// the spec, settings changed are restored (and the restore verified), an
// upload is listed in the run summary (the API cannot delete uploads).
func (p Probe) Send(ctx context.Context, r client.Request) *client.Exchange {
	t := p.t
	var ex *client.Exchange
	switch p.Endpoint {
	case spec.CreatePage:
		GuardCreate(ctx, t, p.Slug)
		ex = t.Client.Do(ctx, r)
	case spec.EditSettings:
		ex = settingsguard.New(ctx, t, "a settings PUT without valid credentials (must be refused)").Send(ctx, r)
	default:
		ex = t.Client.Do(ctx, r)
	}
	p.Settle(ctx, ex)
	return ex
}

// Settle takes responsibility for what the probe's exchange ex made if the
// server wrongly accepted it (Send's second half), for a probe sent
// otherwise than by Send (a prepare function's Client.Do, a batch): a
// created page is adopted, an upload listed in the run summary.
func (p Probe) Settle(ctx context.Context, ex *client.Exchange) {
	t := p.t
	// A cut body still tells the status: an upload accepted and then cut
	// is listed all the same.
	if ex.StatusErr() != nil || ex.Status < 200 || ex.Status >= 300 {
		return
	}
	switch p.Endpoint {
	case spec.CreatePage:
		t.Adopt(ctx, ex)
	case spec.UploadImage, spec.UploadFile:
		t.Ledger.AddUpload(fmt.Sprintf("%s %s accepted without valid credentials: %s",
			ex.Method, ex.URL, ex.BodyExcerpt()))
	}
}

// GuardCreate makes sure a page that a refused create should not have made
// is removed if it exists after all: at the end of the spec its slug is
// read and, when found, deleted with valid credentials.
func GuardCreate(ctx context.Context, t *framework.Fixture, slug string) {
	t.DeferCleanup(ctx, func(ctx context.Context) {
		if t.ReadOnly || !t.Client.HasAuth() {
			return
		}
		ctx, cancel := framework.CleanupContext(ctx)
		defer cancel()
		ex := t.ReadAuth(ctx, client.KeyPath("pages", slug), nil)
		if ex.Err == nil && ex.Status == http.StatusOK && ex.Get("data.key").String() == slug {
			t.Ledger.AddPage(slug)
			_ = t.DeletePage(ctx, slug) // the sweep retries and reports what remains
		}
	})
}

// UnknownEndpoint is a request to a path or method the spec does not
// list, with the API token where the spec puts it for the method (the query
// string for methods the spec does not place it for; the header when the
// run sends tokens in headers) and harmless input. A body is a run-marked
// draft whose slug is returned (name tells apart the slugs of several such
// requests), so that a broken server that took it for a create would make a
// page the spec can look for, and the sweep and `conformance cleanup` can
// find; slug is "" for requests without a body.
func UnknownEndpoint(t *framework.Fixture, method, path, name string) (r client.Request, slug string) {
	r = client.Request{Method: method, Path: path, Credentials: client.APIToken, Probe: true}
	switch method {
	case http.MethodPost, http.MethodPut:
		slug = t.Marker("unknown-endpoint-" + name)
		r.JSON = map[string]any{"title": "Conformance probe " + t.RunID, "slug": slug, "type": "draft"}
	default:
		r.Query = url.Values{"x": {"1"}}
		if t.Client.CredentialsPlacement() == client.CredentialsInParams {
			// A run sending the tokens in headers keeps them there: this
			// is no check of where the spec puts them.
			r.Placement = client.InQuery
		}
	}
	return r, slug
}

// DiscoverPath returns the path of a real resource of a read endpoint: the
// endpoint's path itself for lists, and for single resources a key that a
// list endpoint names (of tags and categories, the term naming fewest
// pages; a page the run creates when the target has none and writes are
// allowed). Without one it returns why, for the judge to say
// (NotChecked): a prepare function may not skip its spec.
func DiscoverPath(ctx context.Context, t *framework.Fixture, ep spec.Endpoint) (path, reason string) {
	list := map[spec.Endpoint]string{spec.GetPage: "pages", spec.ListFiles: "pages", spec.GetTag: "tags",
		spec.GetCategory: "categories", spec.GetUser: "users"}[ep]
	if list == "" {
		return ep.Path(), ""
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
		return "", fmt.Sprintf("GET /api/%s answered HTTP %d, so no %s key could be found to read", list, ex.Status, list)
	}
	key := ""
	switch list {
	case "users":
		// data is an object keyed by username (spec 4.8).
		ex.Get("data").ForEach(func(k, _ gjson.Result) bool { key = k.String(); return false })
	case "tags", "categories":
		key = smallestTerm(ex.Get("data"))
	default:
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
		return "", fmt.Sprintf("the target has no %s to read (GET /api/%s lists none)", list, list)
	}
	endpoint := list
	if ep == spec.ListFiles {
		endpoint = "files"
	}
	return client.KeyPath(endpoint, key), ""
}

// ReadRequest is GET path, a real resource of read endpoint ep
// (DiscoverPath). A tag's or a category's view carries every page it
// names in full: it is read as a stream, as the taxonomy specs read it
// (the read cache's answer when theirs came first), so that no size leaves
// it unjudged; data.pages is empty in the body kept.
func ReadRequest(t *framework.Fixture, ep spec.Endpoint, path string) client.Request {
	if ep == spec.GetTag || ep == spec.GetCategory {
		return t.Pages.StreamedRequest(path, "data.pages")
	}
	return client.Request{Method: http.MethodGet, Path: path}
}

// smallestTerm is the key of the term of a tag or category list that
// names fewest pages ("" when none has a key): its single view carries
// every page it names in full, and a big site's first term may be larger
// than the run's read limit.
func smallestTerm(data gjson.Result) string {
	key, fewest := "", 0
	for _, item := range data.Array() {
		k, n := item.Get("key").String(), len(item.Get("list").Array())
		if k != "" && (key == "" || n < fewest) {
			key, fewest = k, n
		}
	}
	return key
}
