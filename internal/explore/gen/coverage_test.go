package gen_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conformance-suite/conformance/internal/explore/gen"
)

// The generators cover what issue 24 names, over a fixed set of seeds
// (rapid's Example: the same values on every run, so a gap is a gap and
// not bad luck).

// samples is how many values of each generator the coverage tests look at.
const samples = 400

// sample draws n values of g, one per seed.
func sample[V any](g *rapid.Generator[V], n int) []V {
	out := make([]V, n)
	for i := range out {
		out[i] = g.Example(i)
	}
	return out
}

// covered fails t for every class of want that seen lacks.
func covered(t *testing.T, what string, seen map[string]bool, want ...string) {
	t.Helper()
	for _, w := range want {
		if !seen[w] {
			t.Errorf("%s: no %s in %d samples", what, w, samples)
		}
	}
}

// TestListCoverage: filters in any combination; page sizes and numbers
// huge, negative, non-numeric, empty, -1, 0; untagged with a page size of 1.
func TestListCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sample(gen.List(), samples) {
		for _, p := range c.Query {
			seen[p.Name+"="+p.Value] = true
			if p.Name != "numberOfItems" && p.Name != "pageNumber" {
				continue
			}
			n, err := strconv.Atoi(p.Value)
			switch {
			case p.Value == "":
				seen[p.Name+" empty"] = true
			case err != nil:
				seen[p.Name+" not an integer"] = true
			case n < -1:
				seen[p.Name+" negative"] = true
			case n >= 1000:
				seen[p.Name+" huge"] = true
			}
		}
		if v, _ := c.Param("untagged"); v == "true" {
			if s, _ := c.Param("numberOfItems"); s == "1" {
				seen["untagged with size 1"] = true
			}
		}
		if len(c.Query) >= 6 {
			seen["six parameters or more"] = true
		}
	}
	var want []string
	for _, f := range []string{"published", "static", "sticky", "draft", "scheduled", "untagged"} {
		want = append(want, f+"=true", f+"=false")
	}
	for _, p := range []string{"numberOfItems", "pageNumber"} {
		want = append(want, p+" empty", p+" not an integer", p+" negative", p+" huge", p+"=-1", p+"=0", p+"=1")
	}
	covered(t, "list", seen, append(want, "untagged with size 1", "six parameters or more")...)
}

// TestWriteCoverage: every body field of 4.3 (parent, coverImage and
// template as values the site may not have), in JSON and in form
// encoding; every type and some outside the five; malformed dates;
// values of the wrong kind; long, non-ASCII, HTML, entities and
// ampersands in text; more than three tags; an unknown category.
func TestWriteCoverage(t *testing.T) {
	seen := map[string]bool{}
	note := func(c gen.Case) {
		seen[fmt.Sprintf("form=%t", c.Form)] = true
		for _, f := range c.Fields {
			seen[f.Name] = true
			s, isText := f.Value.(string)
			if !isText {
				seen[fmt.Sprintf("%s of kind %T", f.Name, f.Value)] = true
				if f.Value == nil {
					seen[f.Name+" null"] = true
				}
				continue
			}
			switch f.Name {
			case "type":
				seen["type "+s] = true
			case "date":
				if f.Invalid {
					seen["malformed date"] = true
				} else if s > "2090" {
					seen["future date"] = true
				}
			case "tags":
				if strings.Count(s, ",") >= 3 {
					seen["more than three tags"] = true
				}
			case "category":
				if f.Invalid {
					seen["unknown category"] = true
				}
			}
			for class, has := range textClasses {
				if has(s) {
					seen[class] = true
					seen[f.Name+" "+class] = true
				}
			}
		}
	}
	for _, c := range sample(gen.Create(full), 2*samples) {
		note(c)
	}
	for _, c := range sample(gen.Edit(full), 2*samples) {
		note(c)
	}
	want := []string{"form=true", "form=false", "title", "content", "description", "tags", "category", "type", "date", "slug",
		"parent", "position", "coverImage", "template", "noindex", "nofollow", "noarchive",
		"malformed date", "future date", "more than three tags", "unknown category",
		"title of kind float64", "content of kind bool", "description of kind []interface {}", "title of kind map[string]interface {}",
		"content null", "tags of kind []interface {}", "position of kind float64", "noindex of kind bool"}
	for _, typ := range append(slices.Clone(gen.Types), "bogus", "", "Draft ", "page") {
		want = append(want, "type "+typ)
	}
	for class := range textClasses {
		want = append(want, "title "+class)
	}
	covered(t, "create and edit", seen, append(want, "tags ampersand", "tags non-ASCII", "description long", "content entity")...)
}

// textClasses are the kinds of text a server trips over.
var textClasses = map[string]func(string) bool{
	"long":      func(s string) bool { return utf8.RuneCountInString(s) >= 40 },
	"non-ASCII": func(s string) bool { return strings.ContainsFunc(s, func(r rune) bool { return r > 127 }) },
	"markup":    func(s string) bool { return strings.Contains(s, "<") },
	"entity":    func(s string) bool { return strings.Contains(s, "&amp;") },
	"ampersand": func(s string) bool { return strings.Contains(strings.ReplaceAll(s, "&amp;", ""), "&") },
	"quote":     func(s string) bool { return strings.ContainsAny(s, `"'`) },
	"emoji":     func(s string) bool { return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x1F000 }) },
}

// TestClassCoverage: every field of gen.FieldTypes is drawn in every
// boundary class of its type (issue 32): text empty, blank, tens of KB
// long, with control characters, a NUL, marks, not UTF-8 and of another
// kind; tags with blank and repeated segments and hundreds of names;
// integers negative, zero, huge, fractional and not numbers; booleans in
// other spellings; malformed dates; keys with dot segments.
func TestClassCoverage(t *testing.T) {
	site := *full
	site.DotSegments = true
	seen := map[gen.Cell]int{}
	for _, g := range []*rapid.Generator[gen.Case]{gen.Create(&site), gen.Edit(&site), gen.Settings(&site), gen.List(), gen.Read(&site)} {
		for _, c := range sample(g, 3*samples) {
			for _, cell := range c.Cells() {
				seen[cell]++
			}
		}
	}
	for _, f := range gen.FieldTypes {
		if len(gen.Classes[f.Type]) == 0 {
			t.Errorf("%s: type %s has no classes", f.Name, f.Type)
		}
		for _, class := range gen.Classes[f.Type] {
			if seen[gen.Cell{Field: f.Name, Class: class}] == 0 {
				t.Errorf("%s (%s) never drawn in class %s", f.Name, f.Type, class)
			}
		}
	}
}

// TestSettingsCoverage: each text setting, in JSON and form encoding,
// values of another kind, and customFields that is not JSON.
func TestSettingsCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sample(gen.Settings(full), samples) {
		seen[fmt.Sprintf("form=%t", c.Form)] = true
		for _, f := range c.Fields {
			seen[f.Name] = true
			if _, isText := f.Value.(string); !isText {
				seen["wrong kind"] = true
			}
		}
	}
	covered(t, "settings", seen, "form=true", "form=false", "title", "slogan", "customFields", "wrong kind")
}

// TestKeyCoverage: keys of every class on every read endpoint: ".." and
// NUL, percent-encoded dots, hierarchical, very long, existing, missing.
func TestKeyCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sample(gen.Read(full), samples) {
		seen[c.Endpoint+" "+c.KeyClass] = true
		switch {
		case strings.Contains(c.Key, "%00"):
			seen["NUL"] = true
		case strings.Contains(c.Key, ".."):
			seen[".."] = true
		case strings.Contains(c.Key, "%2E%2E") || strings.Contains(c.Key, "%2e%2e"):
			seen["encoded .."] = true
		case strings.Contains(c.Key, "/"):
			seen["hierarchical"] = true
		case len(c.Key) > 1000:
			seen["over 1000 bytes"] = true
		}
	}
	var want []string
	for _, ep := range []string{"pages", "tags", "categories", "users", "files"} {
		for _, class := range []string{"existing", "missing", "traversal", "encoded", "long"} {
			want = append(want, ep+" "+class)
		}
	}
	covered(t, "keys", seen, append(want, "pages child", "NUL", "..", "encoded ..", "hierarchical", "over 1000 bytes")...)
}

// TestTokenCoverage: the API token valid, missing, empty, wrong and
// misplaced; the authentication token valid, missing and wrong; on reads,
// the settings, edits and deletes.
func TestTokenCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sample(gen.Tokens(full), samples) {
		seen["api "+string(c.APIToken)] = true
		seen[c.Method+" "+c.Endpoint] = true
		if c.Method != "GET" || c.Endpoint == "settings" {
			seen["auth "+string(c.AuthToken)] = true
		}
	}
	covered(t, "tokens", seen, "api ", "api missing", "api empty", "api wrong", "api elsewhere", "auth ", "auth missing", "auth wrong",
		"GET pages", "GET settings", "PUT pages", "DELETE pages")
}

// TestBodyCoverage: bodies that are not JSON (empty, cut short, a list,
// XML, a form, a NUL byte), each Content-Type of 1.3 and others, and a
// complete JSON body sent with another Content-Type.
func TestBodyCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sample(gen.Body(full), samples) {
		seen["type "+c.ContentType] = true
		seen[c.Method+" "+c.Endpoint] = true
		switch {
		case c.WithTokens:
			seen["a JSON create under "+c.ContentType] = true
		default:
			seen["body "+c.Raw] = true
		}
	}
	covered(t, "bodies", seen, "type application/json", "type application/x-www-form-urlencoded", "type text/plain", "type ",
		"type application/xml", "type multipart/form-data", "type application/json; charset=utf-16",
		"body ", "body {", "body []", "body not json", `body {"title":`, "body \x00", "body <page><title>a</title></page>",
		"a JSON create under text/plain", "POST pages", "PUT pages", "PUT settings")
}
