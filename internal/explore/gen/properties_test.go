package gen_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/conformance-suite/conformance/internal/explore/gen"
)

// Properties every generated case keeps, whatever rapid draws: they are
// what makes an exploration safe on a real site (only run-marked pages,
// no custom field the site does not have, nothing a read-only run must
// not send) and its oracles sound (Invalid marks what the spec does not
// promise to take).

// full is a site the run may write to, settings included.
var full = &gen.Site{Pages: []string{"about", "blog", "blog/first"}, Tags: []string{"salt"}, Categories: []string{"news"},
	Users: []string{"admin"}, Settings: []string{"title", "slogan"}, CustomFields: true, Writes: true, SettingsWrites: true}

// readOnly is the same site, explored without the authentication token.
var readOnly = &gen.Site{Pages: full.Pages, Tags: full.Tags, Categories: full.Categories, Users: full.Users}

// bare is a site without pages, tags, categories or writable settings.
var bare = &gen.Site{Writes: true}

var sites = map[string]*gen.Site{"full": full, "read-only": readOnly, "bare": bare}

// drawSite draws one of the sites.
func drawSite(t *rapid.T) *gen.Site {
	return sites[rapid.SampledFrom([]string{"full", "read-only", "bare"}).Draw(t, "site")]
}

// TestCreateBodies: every create body carries the run-marked slug
// placeholder, a title, content and a type; a form body holds only text;
// a value of another kind than the field's is marked invalid, and so is
// a type outside the five or a malformed date.
func TestCreateBodies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := gen.Create(drawSite(t)).Draw(t, "case")
		if c.Kind != gen.KindCreate {
			t.Fatalf("kind %s", c.Kind)
		}
		if slug, ok := c.Field("slug"); !ok || slug.Value != gen.Slug {
			t.Fatalf("the slug is %v, want the run-marked placeholder %s", slug.Value, gen.Slug)
		}
		for _, name := range []string{"title", "content", "type"} {
			if _, ok := c.Field(name); !ok {
				t.Fatalf("no %s: a create body is a complete page", name)
			}
		}
		checkFields(t, c)
	})
}

// TestEditBodies: an edit sends no slug (4.4 lists none), and a new
// title starts with the run marker, so that a key a server derives from
// it still carries it.
func TestEditBodies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := gen.Edit(drawSite(t)).Draw(t, "case")
		if _, ok := c.Field("slug"); ok {
			t.Fatalf("an edit sends a slug")
		}
		if title, ok := c.Field("title"); ok && !strings.HasPrefix(title.Value.(string), gen.Marker) {
			t.Fatalf("the new title %q does not start with the run marker", title.Value)
		}
		checkFields(t, c)
	})
}

// checkFields checks what holds for the fields of every page write: each
// named once, a form's values text, a parent run-marked, and Invalid on
// every value the spec does not promise to take.
func checkFields(t *rapid.T, c gen.Case) {
	seen := map[string]bool{}
	for _, f := range c.Fields {
		if seen[f.Name] {
			t.Fatalf("%s sent twice", f.Name)
		}
		seen[f.Name] = true
		s, isText := f.Value.(string)
		if c.Form && !isText {
			t.Fatalf("form field %s holds %T", f.Name, f.Value)
		}
		switch {
		case f.Name == "type" && !slices.Contains(gen.Types, s) && !f.Invalid:
			t.Fatalf("type %q outside the five, not marked invalid", s)
		case f.Name == "type" && slices.Contains(gen.Types, s) && f.Invalid:
			t.Fatalf("type %q marked invalid", s)
		case f.Name == "date" && !f.Invalid && !isDate(s):
			t.Fatalf("date %q of a form 4.3 does not allow, not marked invalid", s)
		case slices.Contains([]string{"title", "content", "description", "tags"}, f.Name) && !isText && !f.Invalid:
			t.Fatalf("%s of kind %T, not marked invalid", f.Name, f.Value)
		case slices.Contains([]string{"coverImage", "template", "parent"}, f.Name) && !f.Invalid:
			t.Fatalf("%s %q: whether a server takes it is open, not marked so", f.Name, s)
		case f.Name == "parent" && !strings.HasPrefix(s, gen.Marker):
			t.Fatalf("parent %q is not run-marked", s)
		}
	}
}

// isDate reports whether s has the form of 4.3's dates.
func isDate(s string) bool {
	if len(s) != len("2006-01-02 15:04:05") {
		return false
	}
	for i, r := range s {
		switch i {
		case 4, 7:
			if r != '-' {
				return false
			}
		case 10:
			if r != ' ' {
				return false
			}
		case 13, 16:
			if r != ':' {
				return false
			}
		default:
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return s[5:7] >= "01" && s[5:7] <= "12"
}

// TestSettingsBodies: a settings update sends only text settings the
// site has, and customFields only to a site that has the field: text that
// is not JSON and holds no quoted name (that a lenient parser could take
// for a field), or a value that names a field, of the class the explorer
// never sends (on the host a custom field, once added, stays on every
// page: explore.cannotUndo).
func TestSettingsBodies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		site := drawSite(t)
		c := gen.Settings(site).Draw(t, "case")
		if len(site.Settings) > 0 && len(c.Fields) == 0 {
			t.Fatalf("an update that sends nothing")
		}
		for _, f := range c.Fields {
			if f.Name != "customFields" {
				if !slices.Contains(site.Settings, f.Name) {
					t.Fatalf("setting %s, which the run may not change", f.Name)
				}
				continue
			}
			s, _ := f.Value.(string)
			switch {
			case !site.CustomFields:
				t.Fatalf("customFields sent to a site without it")
			case f.Class == gen.ClassNewName:
			case json.Valid([]byte(s)) || strings.Contains(s, `"`):
				t.Fatalf("customFields %q (%s) could name a field", s, f.Class)
			case !f.Invalid:
				t.Fatalf("customFields %q not marked invalid", s)
			}
		}
	})
}

// TestReadOnlyCases: what a read-only run generates cannot change a site:
// no token case carries a valid authentication token on a write, no
// refused write targets a create or the settings, no body carries the
// tokens, and no write case is made for it at all (explore does not run
// those properties; the generators still never name a real page key in a
// write).
func TestReadOnlyCases(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tok := gen.Tokens(readOnly).Draw(t, "token")
		if tok.Method != http.MethodGet && tok.AuthToken == gen.TokenValid {
			t.Fatalf("a %s with the valid authentication token", tok.Method)
		}
		ref := gen.Refused(readOnly).Draw(t, "refused")
		if ref.Target != "edit" && ref.Target != "delete" {
			t.Fatalf("a refused %s in a read-only run", ref.Target)
		}
		if b := gen.Body(readOnly).Draw(t, "body"); b.WithTokens {
			t.Fatalf("a body with the tokens in a read-only run")
		}
	})
}

// TestWritesTouchOnlyTheRunsPages: a token or body case that writes
// addresses a run-marked key no page has (or creates with the run-marked
// slug); a refused write carries no valid authentication token.
func TestWritesTouchOnlyTheRunsPages(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		site := drawSite(t)
		for _, c := range []gen.Case{gen.Tokens(site).Draw(t, "token"), gen.Body(site).Draw(t, "body")} {
			if c.Method == http.MethodGet || c.Endpoint == "settings" || (c.Method == http.MethodPost && c.Key == "") {
				continue
			}
			if !strings.HasPrefix(c.Key, gen.Marker) || c.KeyClass != "missing" {
				t.Fatalf("a %s %s of key %q (%s)", c.Method, c.Kind, c.Key, c.KeyClass)
			}
		}
		if b := gen.Body(site).Draw(t, "create"); b.WithTokens {
			if slug, _ := b.Field("slug"); slug.Value != gen.Slug {
				t.Fatalf("a body with the tokens whose slug is %v", slug.Value)
			}
		}
		r := gen.Refused(site).Draw(t, "refused")
		if r.AuthToken != gen.TokenMissing && r.AuthToken != gen.TokenWrong {
			t.Fatalf("a refused write with authentication %q", r.AuthToken)
		}
		if r.Target == "settings" && (len(r.Fields) != 1 || !slices.Contains(site.Settings, r.Fields[0].Name)) {
			t.Fatalf("a refused settings update of %v", r.Fields)
		}
	})
}

// TestKeys: each class of key is what it says: an existing one is a name
// the site has, a child is under a top-level page, a missing one is
// run-marked, a traversal one holds ".." or a NUL byte, an encoded one a
// percent-encoded "..", a long one hundreds of characters; none is a
// whole dot-segment, which a web server in front may remove from the path.
func TestKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		site := drawSite(t)
		c := gen.Read(site).Draw(t, "case")
		k := c.Key
		ok := true
		switch c.KeyClass {
		case "existing":
			ok = slices.Contains(append(append(append(site.Pages, site.Tags...), site.Categories...), site.Users...), k)
		case "child":
			parent, child, found := strings.Cut(k, "/")
			ok = found && slices.Contains(site.Pages, parent) && !strings.Contains(parent, "/") && strings.HasPrefix(child, gen.Marker)
		case "missing":
			ok = strings.HasPrefix(k, gen.Marker)
		case "traversal":
			ok = strings.Contains(k, "..") || strings.Contains(k, "%00")
		case "encoded":
			ok = strings.Contains(strings.ToLower(k), "%2e")
		case "long":
			ok = len(k) >= 200 && strings.HasPrefix(k, gen.Marker)
		default:
			ok = false
		}
		if !ok {
			t.Fatalf("a %s key %q on %s", c.KeyClass, k, c.Endpoint)
		}
		for _, seg := range strings.Split(strings.ReplaceAll(strings.ToLower(k), "%2e", "."), "/") {
			if seg == "." || seg == ".." {
				t.Fatalf("a %s key %q on %s holds a dot-segment", c.KeyClass, k, c.Endpoint)
			}
		}
	})
}

// TestListParameters: a list request sends only the parameters of 4.1,
// each once.
func TestListParameters(t *testing.T) {
	known := []string{"published", "static", "sticky", "draft", "scheduled", "untagged", "numberOfItems", "pageNumber"}
	rapid.Check(t, func(t *rapid.T) {
		c := gen.List().Draw(t, "case")
		seen := map[string]bool{}
		for _, p := range c.Query {
			if !slices.Contains(known, p.Name) || seen[p.Name] {
				t.Fatalf("parameter %s (sent before: %t)", p.Name, seen[p.Name])
			}
			seen[p.Name] = true
		}
	})
}
