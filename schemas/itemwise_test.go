package schemas

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// A list answer over itemwiseAt is validated an item at a time; what it
// says must be what validating it whole says, violation for violation and
// in the same order, whatever is wrong in the envelope or in the items.
func TestItemwiseIsWholeValidation(t *testing.T) {
	page := map[string]any{"key": "alpha-post", "uuid": "d8e2c7a0f1b34b6e9a5d0c1e2f3a4b5c", "title": "Alpha Post",
		"description": "d", "type": "published", "slug": "alpha-post", "content": "<p>x</p>", "contentRaw": "x",
		"date": "2025-01-10 10:00:00", "dateRaw": "2025-01-10 10:00:00", "dateUTC": "2025-01-10 10:00:00",
		"tags": map[string]any{"news": "News"}, "username": "admin", "category": "", "permalink": "http://h/alpha-post",
		"coverImage": false, "coverImageFilename": false}
	term := map[string]any{"key": "news", "name": "News", "description": "", "template": "", "list": []any{"alpha-post"}}
	file := map[string]any{"file": "/var/www/a.pdf", "filename": "a.pdf", "mime": "application/pdf", "size": 1024, "thumbnail": ""}
	pageMeta := map[string]any{"numberOfItems": 15, "meta": map[string]any{"total": 2, "pageNumber": 1, "pageSize": 15, "hasMore": false}}
	// Wrong values an item or the envelope may carry.
	wrong := []any{nil, "x", 7, -1, 1.5, true, []any{1}, map[string]any{"a": 1}, "2025-13-45", ""}
	cases := []struct {
		schema string
		item   map[string]any
		extra  map[string]any
	}{
		{"page-list.json", page, pageMeta},
		{"tag-list-response.json", term, nil},
		{"category-list-response.json", term, nil},
		{"file-list-response.json", file, nil},
	}
	found := 0
	for _, c := range cases {
		if listItems(c.schema) == "" {
			t.Fatalf("%s: no item schema found", c.schema)
		}
		for seed := range uint64(12) {
			r := rand.New(rand.NewPCG(seed, 1))
			doc := map[string]any{"status": "0", "message": "ok"}
			for k, v := range c.extra {
				doc[k] = v
			}
			var data []any
			for len(data) < 400 { // about 150 KB: past itemwiseAt
				item := map[string]any{}
				for k, v := range c.item {
					item[k] = v
				}
				if r.IntN(8) == 0 { // a wrong value, a missing member, or one too many
					keys := make([]string, 0, len(item))
					for k := range item {
						keys = append(keys, k)
					}
					k := keys[r.IntN(len(keys))]
					switch r.IntN(3) {
					case 0:
						item[k] = wrong[r.IntN(len(wrong))]
					case 1:
						delete(item, k)
					default:
						item["extra member"] = wrong[r.IntN(len(wrong))]
					}
				}
				item["description"] = strings.Repeat("d", 300)
				data = append(data, item)
			}
			if r.IntN(4) == 0 {
				data = append(data, wrong[r.IntN(len(wrong))]) // an item that is no object
			}
			doc["data"] = data
			if r.IntN(3) == 0 {
				doc["status"] = wrong[r.IntN(len(wrong))]
			}
			if r.IntN(3) == 0 {
				delete(doc, "message")
			}
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) <= itemwiseAt {
				t.Fatalf("a document of %d bytes: not past itemwiseAt", len(b))
			}
			if _, ok, _ := itemwise(c.schema, listItems(c.schema), b); !ok {
				t.Fatalf("%s, seed %d: not validated item by item", c.schema, seed)
			}
			whole, werr := messages(c.schema, b)
			found += len(whole)
			got, gerr := Violations(c.schema, b)
			if want := sortedViolations(whole); !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
				t.Fatalf("%s, seed %d: item by item gave %d violations (%v), whole %d (%v)\n%s", c.schema, seed,
					len(got), gerr, len(want), werr, firstDifference(got, want))
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d violations in all: the documents are too good to compare the two ways", found)
	}
}

func firstDifference(got, want []Violation) string {
	for i := range max(len(got), len(want)) {
		var g, w Violation
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("at %d: got %+v, want %+v", i, g, w)
		}
	}
	return ""
}

// A list answer with two data members, or one that starts with white
// space, is judged as a decoder reads it: the last data member counts.
func TestItemwiseEdges(t *testing.T) {
	good := `{"key":"news","name":"News","description":"` + strings.Repeat("d", 300) + `","template":"","list":["a"]}`
	bad := strings.Replace(good, `"key":"news"`, `"key":7`, 1)
	items := func(item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", 300), ",") + "]"
	}
	for _, doc := range []string{
		`{"status":"0","message":"ok","data":` + items(bad) + `,"data":` + items(good) + `}`,
		`{"status":"0","message":"ok","data":` + items(good) + `,"data":"x"}`,
		"\n\t " + `{"status":"0","message":"ok","data":` + items(bad) + `}`,
	} {
		whole, err := messages("tag-list-response.json", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Violations("tag-list-response.json", []byte(doc))
		if want := sortedViolations(whole); err != nil || len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%.60s…: %d violations (%v), whole %d\n%s", doc, len(got), err, len(want), firstDifference(got, want))
		}
	}
}
