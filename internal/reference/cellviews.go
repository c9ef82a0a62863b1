package reference

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// The output side of the cell mutants (cellmutants.go): a field of a
// record that has another kind, or another value, in one view. The answer
// is rewritten as plain JSON values (its members then in key order, which
// the spec leaves open).

// breakOutput applies the output side of the enabled cell mutants to a
// successful answer to r.
func (s *Server) breakOutput(r *http.Request, resp response) response {
	if resp.kind != kindSuccess || resp.body == nil || r.Method != http.MethodGet {
		return resp
	}
	endpoint, key := apiPath(r.URL.Path)
	var body any
	for _, id := range s.cells {
		section, field, way := id.Parts()
		at, ok := cellView(section, field, way)
		if !ok || at.endpoint != endpoint || at.single != (key != "") {
			continue
		}
		if body == nil {
			body = plain(resp.body)
		}
		change := altered
		switch {
		case way == coverage.Kind && section == "settings":
			change = notScalar // 2.6 gives the named fields only an example kind: any scalar passes
		case way == coverage.Kind:
			change = wrongKind
		}
		m, _ := body.(map[string]any)
		for _, rec := range records(m["data"], at.records) {
			if _, has := rec[at.field]; has {
				rec[at.field] = change(rec[at.field])
			}
		}
	}
	if body != nil {
		resp.body = nil
		resp.raw = append(encodePlain(body), '\n')
	}
	return resp
}

// termSource is the pages a tag or category view lists, of those keep
// keeps: the pages as they are, or, under TermsIgnoreWrites, as they were
// when the server started. The caller holds the lock.
func (s *view) termSource(keep func(*page) bool) []*page {
	if !s.mutated(TermsIgnoreWrites) {
		return s.sortedPages(keep)
	}
	now := s.pages
	s.pages = s.seedPages
	defer func() { s.pages = now }()
	return s.sortedPages(keep)
}

// cellSpot is where a cell mutant changes a field: the answers of an
// endpoint (single: GET of a key), the records in their data (records:
// "" for data itself, "[]" for its items, "{}" for its values, "pages[]"
// for the items of data.pages), and the field changed.
type cellSpot struct {
	endpoint string
	single   bool
	records  string
	field    string
}

// where names the spot of the cell mutant of field for its description:
// "the pages of GET /api/tags/{key} (their title)", "the items of GET
// /api/pages".
func (at cellSpot) where(field string) string {
	path := "GET /api/" + at.endpoint
	if at.single && at.endpoint == "users" {
		path += "/{username}"
	} else if at.single {
		path += "/{key}"
	}
	switch {
	case at.records == "pages[]":
		path = "the pages of " + path
	case at.records == "[]" && !at.single:
		path = "the items of " + path
	}
	if at.field != field {
		path += " (their " + at.field + ")"
	}
	return path
}

// cellView is where the cell mutant of section.field.way changes a field.
func cellView(section, field string, way coverage.Way) (cellSpot, bool) {
	switch section {
	case "page":
		return pageCellView(field, way)
	case "tag", "category":
		return termCellView(section, field, way), true
	case "user":
		if way == coverage.Kind {
			return cellSpot{"users", true, "", field}, true
		}
		return cellSpot{"users", false, "{}", field}, true
	case "file":
		return cellSpot{"files", true, "[]", field}, true
	case "settings":
		return cellSpot{"settings", false, "", field}, true
	}
	return cellSpot{}, false
}

// pageCellView is where the cell mutant of page.field.way changes a field:
// a kind in the pages of a tag, the key in the pages of a category, any
// other value in the items of the page list.
func pageCellView(field string, way coverage.Way) (cellSpot, bool) {
	switch {
	case way == coverage.Kind:
		return cellSpot{"tags", true, "pages[]", field}, true
	case way == coverage.Views && field == "key":
		return cellSpot{"categories", true, "pages[]", field}, true
	case way == coverage.Views:
		return cellSpot{"pages", false, "[]", field}, true
	}
	return cellSpot{}, false
}

// termCellView is where the cell mutant of a tag or category field changes
// it.
func termCellView(section, field string, way coverage.Way) cellSpot {
	endpoint := endpointOf(section)
	switch {
	case field == "pages" && way == coverage.Kind:
		return cellSpot{endpoint, true, "", field}
	case field == "pages" && section == "tag":
		return cellSpot{endpoint, true, "pages[]", "title"}
	case field == "pages":
		return cellSpot{endpoint, true, "pages[]", "description"}
	case way == coverage.Kind:
		return cellSpot{endpoint, false, "[]", field}
	}
	return cellSpot{endpoint, true, "", field}
}

// records are the objects of data that a view's records path names.
func records(data any, path string) []map[string]any {
	var out []map[string]any
	switch path {
	case "":
		if m, ok := data.(map[string]any); ok {
			out = append(out, m)
		}
	case "[]":
		items, _ := data.([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				out = append(out, m)
			}
		}
	case "{}":
		m, _ := data.(map[string]any)
		for _, v := range m {
			if rec, ok := v.(map[string]any); ok {
				out = append(out, rec)
			}
		}
	case "pages[]":
		m, _ := data.(map[string]any)
		return records(m["pages"], "[]")
	}
	return out
}

// wrongKind is a value of a kind no schema of the spec allows where v is.
func wrongKind(v any) any {
	switch v.(type) {
	case string, bool:
		return json.Number("7")
	case json.Number:
		return "7"
	case []any:
		return "x"
	}
	return "x" // an object (tags): a string
}

// notScalar is a value that is no scalar: an object.
func notScalar(any) any { return map[string]any{"altered": json.Number("1")} }

// altered is another value of v's kind (an absent cover image, false,
// becomes a file name).
func altered(v any) any {
	switch x := v.(type) {
	case string:
		return x + "-altered"
	case bool:
		return "altered.png"
	case []any:
		return append(x, "conformance-altered")
	case map[string]any:
		x["conformance-altered"] = "Altered"
		return x
	case json.Number:
		return json.Number(x.String() + "1")
	}
	return v
}

// plain is a response body as plain JSON values (maps, slices, strings,
// json.Number, bools, nil).
func plain(body obj) any {
	dec := json.NewDecoder(bytes.NewReader((&encoder{}).encode(body)))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v) // the encoder writes valid JSON
	return v
}

func encodePlain(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain values always encode
	return bytes.TrimSpace(b.Bytes())
}
