package gen

import (
	"strconv"

	"pgregory.net/rapid"
)

// Create generates POST /api/pages bodies (4.3), in JSON or form encoding.
// Every body carries a run-marked slug, a title, content and a type (draft
// first): a complete, plausible page (see PAGE-CREATE-201), so that a
// refusal of a body whose every field is valid is the server's fault, and
// so that what the run creates is a draft unless a type is the point.
func Create(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindCreate, Form: rapid.Bool().Draw(t, "form")}
		c.Fields = append(c.Fields, Field{Name: "slug", Value: Slug},
			TextField(t, "title", c.Form, Text()), TextField(t, "content", c.Form, Text()), TypeField(t))
		c.Fields = settle(t, append(c.Fields, pageFields(t, site, c.Form)...))
		return c
	})
}

// Edit generates PUT /api/pages/{key} bodies (4.4) for a draft of the
// run: any of the fields, none required. A new title starts with the run
// marker, so that a key the server derives from it still carries it.
func Edit(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindEdit, Form: rapid.Bool().Draw(t, "form")}
		if title := Marker + " " + Text().Draw(t, "title"); maybe(t, "title") {
			c.Fields = append(c.Fields, Field{Name: "title", Value: title})
		}
		if content := TextField(t, "content", c.Form, Text()); maybe(t, "content") {
			c.Fields = append(c.Fields, content)
		}
		if typ := TypeField(t); maybe(t, "type") {
			c.Fields = append(c.Fields, typ)
		}
		c.Fields = settle(t, append(c.Fields, pageFields(t, site, c.Form)...))
		return c
	})
}

// pageFields draws the optional fields of a create or edit body: each
// value first, then whether it is sent.
func pageFields(t *rapid.T, site *Site, form bool) []Field {
	var out []Field
	add := func(name string, f Field) {
		if maybe(t, name) {
			out = append(out, f)
		}
	}
	add("description", TextField(t, "description", form, Text()))
	add("tags", TagsField(t, form))
	category := Field{Name: "category", Value: Marker + "no-such-category", Invalid: true}
	if len(site.Categories) > 0 {
		known := Field{Name: "category", Value: rapid.SampledFrom(site.Categories).Draw(t, "category")}
		category.plain = &known
		if rapid.IntRange(0, 3).Draw(t, "unknownCategory") < 3 {
			category = known
		}
	}
	add("category", category)
	add("date", DateField(t))
	add("position", IntField(t, "position", form))
	for _, name := range []string{"noindex", "nofollow", "noarchive"} {
		add(name, BoolField(t, name, form))
	}
	// A cover image or a template the site may not have, a parent no page
	// has: whether a server takes them is not said (Invalid: refused or
	// accepted, both pass). At most one, now and then, so that most
	// bodies stay valid; the parent is a run-marked key, so that a page a
	// server makes under it is still the run's (marker.HasRunMarker).
	cover := rapid.SampledFrom([]string{"cover.png", "https://example.org/cover.jpg", "../cover.png"}).Draw(t, "coverImage")
	template := Name().Draw(t, "template")
	switch rapid.IntRange(0, 14).Draw(t, "openField") {
	case 12:
		out = append(out, Field{Name: "coverImage", Value: cover, Invalid: true})
	case 13:
		out = append(out, Field{Name: "template", Value: template, Invalid: true})
	case 14:
		out = append(out, Field{Name: "parent", Value: Marker + "no-such-parent", Invalid: true})
	}
	return out
}

// jsonOrForm is v as JSON decodes it, or as text in a form.
func jsonOrForm(form bool, v any) any {
	if !form {
		return v
	}
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return v
}

// Refused generates writes without a valid authentication token (5.5):
// a create, an edit or a delete of a page of the run, or a settings
// update (when the run may write them). A read-only run sends only edits
// and deletes of a run-marked key no page has: probes that cannot change
// a site even if a broken server took them.
func Refused(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		targets := []string{"edit", "delete"}
		if site.Writes {
			targets = append(targets, "create")
			if site.SettingsWrites && len(site.Settings) > 0 {
				targets = append(targets, "settings")
			}
		}
		c := Case{Kind: KindRefused, Target: rapid.SampledFrom(targets).Draw(t, "target"),
			AuthToken: rapid.SampledFrom([]Token{TokenMissing, TokenWrong}).Draw(t, "auth")}
		switch c.Target {
		case "create":
			c.Form = rapid.Bool().Draw(t, "form")
			c.Fields = append(c.Fields, Field{Name: "slug", Value: Slug}, Field{Name: "title", Value: Text().Draw(t, "title")},
				Field{Name: "content", Value: Text().Draw(t, "content")}, Field{Name: "type", Value: "draft"})
			c.Fields = settle(t, append(c.Fields, pageFields(t, site, c.Form)...))
		case "edit":
			c.Form = rapid.Bool().Draw(t, "form")
			e := Edit(site).Draw(t, "edit")
			c.Fields = e.Fields
		case "settings":
			c.Fields = []Field{{Name: rapid.SampledFrom(site.Settings).Draw(t, "setting"), Value: Marker + " " + Text().Draw(t, "value")}}
		}
		return c
	})
}

// badCustomFields are customFields values that are not JSON text and
// name no field even to a lenient parser (no quoted name in them): a
// server that wrongly takes one adds no custom field to the site's pages
// (see the README on custom fields).
var badCustomFields = []string{"{", "not json", "[", "'x'", "{,}", "}"}

// Settings generates PUT /api/settings bodies (4.10): text settings of
// 2.6 in every text class, and, when the site has the field, customFields
// that is not JSON text (ClassNotJSON), or now and then a value that
// names a new field (ClassNewName), which the explorer never sends (on
// the host a custom field, once added, stays on every page for good: it
// is counted as skipped, and reported).
func Settings(site *Site) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := Case{Kind: KindSettings, Endpoint: "settings", Form: rapid.Bool().Draw(t, "form")}
		for _, name := range site.Settings {
			if f := TextField(t, name, c.Form, Text()); maybe(t, name) {
				c.Fields = append(c.Fields, f)
			}
		}
		bad := rapid.SampledFrom(badCustomFields).Draw(t, "customFieldsValue")
		named := `{"` + Marker + rapid.SampledFrom([]string{"a", "subtitle"}).Draw(t, "customFieldName") + `":{"type":"string"}}`
		if site.CustomFields {
			switch rapid.IntRange(0, 9).Draw(t, "customFields") {
			case 8:
				c.Fields = append(c.Fields, Field{Name: "customFields", Value: bad, Invalid: true, Class: ClassNotJSON})
			case 9:
				c.Fields = append(c.Fields, Field{Name: "customFields", Value: named, Class: ClassNewName})
			}
		}
		if len(c.Fields) == 0 && len(site.Settings) > 0 {
			c.Fields = append(c.Fields, Field{Name: site.Settings[0], Value: Text().Draw(t, "value"), Class: ClassPlain})
		}
		return c
	})
}
