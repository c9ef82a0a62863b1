package auth

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"reflect"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// probe is a request to one endpoint that names no real resource: keys and
// usernames carry the run marker, so they exist on no target.
type probe struct {
	ep   spec.Endpoint
	path string
	// slug is the run-marked slug a create probe asks for.
	slug string
	// file is the run-marked name of an upload probe's file.
	file string
	// safe: the request cannot change the target even if the server
	// wrongly carries it out (it addresses a page that does not exist).
	safe bool
}

// newProbe builds the probe of ep; name tells apart the markers of the
// specs that probe the same endpoint.
func newProbe(t *framework.Fixture, ep spec.Endpoint, name string) probe {
	p := probe{ep: ep, path: ep.Path(), safe: true}
	missing := t.Marker("no-such-" + name)
	switch ep {
	case spec.GetPage, spec.EditPage, spec.DeletePage:
		p.path = client.KeyPath("pages", missing)
	case spec.GetTag:
		p.path = client.KeyPath("tags", missing)
	case spec.GetCategory:
		p.path = client.KeyPath("categories", missing)
	case spec.GetUser:
		p.path = client.KeyPath("users", missing)
	case spec.ListFiles:
		p.path = client.KeyPath("files", missing)
	case spec.UploadFile:
		p.path, p.file = client.KeyPath("files", missing), t.Marker(name)+".txt"
	case spec.CreatePage:
		p.slug, p.safe = t.Marker("refused-"+name), false
	case spec.UploadImage:
		p.file, p.safe = t.Marker(name)+".png", false
	case spec.EditSettings:
		p.safe = false
	}
	return p
}

// decorators are the t.It arguments the probe needs: its endpoint label,
// and Writes/SettingsWrites when a wrongly accepted request would change
// the target (read-only runs then skip the spec).
func (p probe) decorators() []any {
	args := []any{p.ep}
	switch {
	case p.ep == spec.EditSettings:
		args = append(args, framework.SettingsWrites)
	case !p.safe:
		args = append(args, framework.Writes)
	}
	return args
}

// missingPage reports whether the probe names a page that does not exist
// (edit, delete, file upload).
func (p probe) missingPage() bool {
	return p.ep == spec.EditPage || p.ep == spec.DeletePage || p.ep == spec.UploadFile
}

// refusals are the statuses that answer the probe sent without a valid
// authentication token: 401 (5.5), and for a probe naming a page that does
// not exist also 404 (4.4, 4.5, 7: no page has the key), since the spec
// does not say which of the two a server checks first (the rules'
// Reading). The API token is valid, so no early error comes first.
func (p probe) refusals() []int {
	if p.missingPage() {
		return []int{http.StatusUnauthorized, http.StatusNotFound}
	}
	return []int{http.StatusUnauthorized}
}

// caseName tells the probe's spec apart from others of its rule.
func (p probe) caseName() string {
	if p.missingPage() {
		return string(p.ep) + ", a page that does not exist"
	}
	return string(p.ep)
}

// request is the probe with harmless input besides any tokens (a request
// with no input at all may be refused for that reason first, as the
// previous release does). The caller sets the credentials.
func (p probe) request() client.Request {
	r := client.Request{Method: p.ep.Method(), Path: p.path, Probe: p.safe}
	switch p.ep {
	case spec.CreatePage:
		r.JSON = map[string]any{"slug": p.slug, "title": "Conformance probe " + p.slug, "type": "draft"}
	case spec.EditPage:
		r.JSON = map[string]any{"description": "conformance probe"}
	case spec.EditSettings:
		// No settings field: even a server that wrongly carries the request
		// out has nothing to change. The tokens are the input.
	case spec.UploadImage:
		r.Files = []client.File{{Field: "image", Name: p.file, MIMEType: "image/png", Content: tinyPNG()}}
	case spec.UploadFile:
		r.Files = []client.File{{Field: "file", Name: p.file, MIMEType: "text/plain", Content: []byte("conformance probe\n")}}
	default: // GET and DELETE
		r.Query = url.Values{"x": {"1"}}
	}
	return r
}

// send sends r (built from the probe) and takes responsibility for anything
// a wrongly accepted request made: a created page is deleted at the end of
// the spec, settings changed are restored (and the restore verified), an
// upload is listed in the run summary (the API cannot delete uploads).
func (p probe) send(ctx context.Context, t *framework.Fixture, r client.Request) *client.Exchange {
	if p.ep == spec.CreatePage {
		guardCreate(t, p.slug)
	}
	var settings map[string]any
	if p.ep == spec.EditSettings && t.Client.HasAuth() {
		settings = readSettings(ctx, t)
	}
	ex := t.Client.Do(ctx, r)
	if settings != nil {
		if now := readSettings(ctx, t); now != nil && !reflect.DeepEqual(now, settings) {
			restoreSettings(ctx, t, settings, now)
		}
	}
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return ex
	}
	switch p.ep {
	case spec.CreatePage:
		t.Adopt(ex)
	case spec.UploadImage, spec.UploadFile:
		t.Ledger.AddUpload(fmt.Sprintf("%s accepted without valid credentials (spec %q): %s",
			p.ep, CurrentSpecReport().LeafNodeText, ex.BodyExcerpt()))
	}
	return ex
}

// guardCreate makes sure a page that a refused create should not have made
// is removed if it exists after all: at the end of the spec its slug is read
// and, when found, deleted with valid credentials.
func guardCreate(t *framework.Fixture, slug string) {
	DeferCleanup(func(ctx context.Context) {
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

// readSettings returns the settings object, nil when it cannot be read.
func readSettings(ctx context.Context, t *framework.Fixture) map[string]any {
	ex := t.ReadAuth(ctx, "/api/settings", nil)
	if ex.Err != nil || ex.Status != http.StatusOK {
		return nil
	}
	m, _ := ex.Get("data").Value().(map[string]any)
	return m
}

// tinyPNG is a valid 1x1 PNG image.
func tinyPNG() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1)))
	return b.Bytes()
}
