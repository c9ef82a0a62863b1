package reference

import (
	"net/http"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// The probes of the cell mutants and of the coverage map's class mutants
// (cellmutants.go, cellviews.go), added to mutantProbes: for each, requests
// whose answers, or the state stored after them, differ from the
// unmutated server's.
func init() {
	for _, id := range coverage.IDs() {
		name, ok := CellMutant(id)
		if !ok || !strings.HasPrefix(string(name), "cell-") {
			continue
		}
		mutantProbes[name] = struct {
			probe []req
			what  string
		}{cellProbe(id), "the cell's fact broken"}
	}
	mutantProbes[TermsIgnoreWrites] = struct {
		probe []req
		what  string
	}{[]req{js("POST", "/api/pages", map[string]any{"title": "T", "tags": "probe tag", "type": "published"}),
		g("/api/tags/probe-tag"),
		// A parent renamed renames its children; the pages as at start
		// must not follow (TestFileModeAnswersTheSame).
		js("PUT", "/api/pages/guides", map[string]any{"title": "Handbook"}),
		g("/api/tags/tutorial")}, "the new page not listed"}
	mutantProbes[UploadRecordSizeString] = struct {
		probe []req
		what  string
	}{[]req{fileUp("beta-post", "a.txt"), g("/api/files/beta-post")}, "size a string"}
	mutantProbes[TagViewsNameIsKey] = struct {
		probe []req
		what  string
	}{[]req{g("/api/tags")}, "name php-tips"}
}

// cellProbe is the probe of the mutant of cell id.
func cellProbe(id coverage.ID) []req {
	section, field, way := id.Parts()
	settings := withAuth(g("/api/settings"))
	switch section {
	case "query":
		if way == coverage.Omitted {
			return []req{g("/api/pages")}
		}
		value := map[string][]string{"published": {"published", "false", "static", "true"}, "untagged": {"untagged", "true"},
			"numberOfItems": {"numberOfItems", "2"}, "pageNumber": {"pageNumber", "2", "numberOfItems", "2"}}[field]
		if value == nil {
			value = []string{field, "true"}
		}
		return []req{g("/api/pages", value...)}
	case "body":
		values := map[string]any{"title": "Probe Title", "content": "probe content", "tags": "probe tag", "category": "music",
			"type": "draft", "date": "2001-02-03 04:05:06", "slug": "probe-slug", "coverImage": "probe.png", "description": "probe"}
		switch way {
		case coverage.Create:
			return []req{js("POST", "/api/pages", map[string]any{"title": "Probe", field: values[field]})}
		case coverage.Edit:
			if field == "category" {
				values[field] = "tech-stuff" // alpha-post is in music
			}
			return []req{js("PUT", "/api/pages/alpha-post", map[string]any{field: values[field]})}
		}
		if field == "parent" {
			return []req{js("PUT", "/api/pages/guides/getting-started", map[string]any{"description": "probe"}), g("/api/pages/getting-started")}
		}
		return []req{js("PUT", "/api/pages/alpha-post", map[string]any{"description": "probe"}), g("/api/pages/alpha-post")}
	case "update":
		value := any("probe-" + strings.ToLower(field))
		if field == "customFields" {
			value = `{"probe":{"type":"string"}}`
		}
		sent := map[string]any{field: value}
		if field == "uriBlog" {
			sent["homepage"] = "probe-home" // the host keeps no blog prefix without a homepage
		}
		if way == coverage.Edit {
			return []req{js("PUT", "/api/settings", sent), settings}
		}
		other := "title"
		if field == "title" {
			other = "slogan"
		}
		return []req{js("PUT", "/api/settings", sent), js("PUT", "/api/settings", map[string]any{other: "x"}), settings}
	case "token":
		return []req{tokenProbe(field, way)}
	case "write":
		return writeProbe(field, way)
	}
	at, _ := cellView(section, field, way)
	path := "/api/" + at.endpoint
	if at.single {
		path += "/" + map[string]string{"tags": "news", "categories": "general", "users": "admin", "files": "alpha-post"}[at.endpoint]
	}
	if at.endpoint == "settings" {
		return []req{settings}
	}
	return []req{g(path)}
}

// tokenProbe is a request with the token row names sent as way says.
func tokenProbe(row string, way coverage.Way) req {
	param, rest, _ := strings.Cut(row, "-")
	var q req
	switch rest {
	case "query-get":
		q = g("/api/pages")
		if param == "authentication" {
			q = g("/api/settings")
		}
	case "query-delete", "jsonbody-delete":
		q = req{method: http.MethodDelete, path: "/api/pages/alpha-post", auth: true, tokensInBody: rest == "jsonbody-delete"}
	case "body-post":
		q = js("POST", "/api/pages", map[string]any{"title": "Probe"})
	case "body-put":
		q = js("PUT", "/api/pages/alpha-post", map[string]any{"description": "probe"})
	}
	if param == "authentication" && rest == "query-get" {
		q.auth = true
	}
	switch {
	case way == coverage.Missing && param == "token":
		q.noToken = true
	case way == coverage.Missing:
		q.auth = false
	case way == coverage.Wrong && param == "token":
		q.token = "wrong"
	case way == coverage.Wrong:
		q.auth, q.authValue = false, "wrong"
	}
	return q
}

// Every cell mutant of a field's kind or views has a spot (cellView), and
// its description names it: the description is built from the spot the
// mutant changes.
func TestCellDescriptionsNameTheirView(t *testing.T) {
	for _, m := range cellTable() {
		section, field, way := cellsByName[m.Name].Parts()
		if way != coverage.Kind && way != coverage.Views {
			continue
		}
		at, ok := cellView(section, field, way)
		if !ok {
			t.Errorf("%s: no view in cellView", m.Name)
			continue
		}
		if want := "GET /api/" + at.endpoint; !strings.Contains(m.Description, want) {
			t.Errorf("%s: description %q does not name %s", m.Name, m.Description, want)
		}
	}
}
