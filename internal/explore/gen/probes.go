package gen

import (
	"net/http"

	"pgregory.net/rapid"
)

// Tokens generates requests whose tokens are missing, empty, wrong or sent
// where the spec does not put them (5.3 to 5.6): reads of the page list,
// of a page and of the settings, and edits and deletes of a run-marked
// key no page has (harmless even if a broken server took them).
func Tokens(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindToken}
		switch rapid.IntRange(0, 4).Draw(t, "request") {
		case 1:
			c.Method, c.Endpoint, c.KeyClass = http.MethodGet, "pages", "existing"
			if len(site.Pages) > 0 {
				c.Key = rapid.SampledFrom(site.Pages).Draw(t, "key")
			} else {
				c.Key, c.KeyClass = Marker+"missing", "missing"
			}
		case 2:
			c.Method, c.Endpoint = http.MethodGet, "settings"
		case 3:
			c.Method, c.Endpoint, c.Key, c.KeyClass = http.MethodPut, "pages", Marker+"missing", "missing"
		case 4:
			c.Method, c.Endpoint, c.Key, c.KeyClass = http.MethodDelete, "pages", Marker+"missing", "missing"
		default:
			c.Method, c.Endpoint = http.MethodGet, "pages"
		}
		c.APIToken = rapid.SampledFrom([]Token{TokenValid, TokenMissing, TokenEmpty, TokenWrong, TokenElsewhere}).Draw(t, "apiToken")
		if c.NeedsAuth() {
			auth := []Token{TokenMissing, TokenWrong}
			if site.Writes || c.Method == http.MethodGet {
				// Valid authentication only where nothing can change: a
				// settings read, a key no page has.
				auth = append([]Token{TokenValid}, auth...)
			}
			c.AuthToken = rapid.SampledFrom(auth).Draw(t, "authToken")
		}
		if c.Method == http.MethodPut {
			c.Fields = []Field{{Name: "description", Value: Text().Draw(t, "description")}}
		}
		return c
	})
}

// rawBodies are bodies that are not a JSON object, or are cut short.
var rawBodies = []string{"", "{", "[]", "null", `"x"`, "not json", "<page><title>a</title></page>", `{"title":`, "a=b&c", `{"token":1}`, "\x00"}

// contentTypes are the Content-Types bodies are sent with: the two the
// spec names (1.3), and others.
var contentTypes = []string{"application/json", "text/plain", "", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=utf-16"}

// Body generates POST and PUT requests whose body is not what the spec
// describes: not JSON, cut short, or sent with another Content-Type.
// Such a body carries no token, so no server can take it as a write;
// when the run may write, a complete create body holding the tokens is
// also sent with a wrong Content-Type (accepted or refused, both are
// allowed; a page it makes is read back and deleted).
func Body(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindBody, Method: http.MethodPost, Endpoint: "pages"}
		switch rapid.IntRange(0, 2).Draw(t, "target") {
		case 1:
			c.Method, c.Key, c.KeyClass = http.MethodPut, Marker+"missing", "missing"
		case 2:
			c.Method, c.Endpoint = http.MethodPut, "settings"
		}
		c.ContentType = rapid.SampledFrom(contentTypes).Draw(t, "contentType")
		if site.Writes && c.Method == http.MethodPost && rapid.IntRange(0, 3).Draw(t, "withTokens") == 3 {
			c.WithTokens = true
			c.Fields = []Field{{Name: "slug", Value: Slug}, {Name: "title", Value: Text().Draw(t, "title")},
				{Name: "content", Value: Text().Draw(t, "content")}, {Name: "type", Value: "draft"}}
			return c
		}
		c.Raw = rapid.SampledFrom(rawBodies).Draw(t, "body")
		return c
	})
}
