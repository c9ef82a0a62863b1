package writes

import (
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// An edit's kinds, as the write table's rows: the fields it sent, a new
// key, a tag taken off, a move from one category to another; a refusal
// for its type is a kind of its own, and an edit without an answer has
// none.
func TestEditKinds(t *testing.T) {
	const was = `{"key":"a","tags":{"x":"X","y":"Y"},"category":"music"}`
	for _, c := range []struct {
		name     string
		was      string
		fields   []string
		status   int
		now      string
		from, at string
		want     []string
	}{
		{"fields and a rename", was, []string{"title", "tags", "token"}, 200, `{"key":"b","tags":{"x":"X","y":"Y"},"category":"music"}`,
			"a", "b", []string{"edit-title", "edit-tags", "rename"}},
		{"a tag taken off, a category changed", was, []string{"tags", "category"}, 200, `{"key":"a","tags":{"y":"Y"},"category":"general"}`,
			"a", "a", []string{"edit-tags", "edit-category", "remove-tag", "move-category"}},
		{"a category set where none was", `{"key":"a","tags":{"x":"X","y":"Y"},"category":""}`, []string{"category"}, 200, `{"key":"a","tags":{"x":"X","y":"Y"},"category":"music"}`,
			"a", "a", []string{"edit-category"}},
		{"refused for its type", was, []string{"type", "description"}, 400, ``, "a", "a", []string{"refused-400"}},
		{"not found", was, []string{"description"}, 404, ``, "a", "a", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := editKinds(c.fields, &client.Exchange{Status: c.status}, gjson.Parse(c.was), gjson.Parse(c.now), c.from, c.at)
			if !slices.Equal(got, c.want) {
				t.Errorf("editKinds = %v, want %v", got, c.want)
			}
		})
	}
	if got := createKinds([]string{"title", "slug", "token", "parent"}); !slices.Equal(got, []string{"create-title", "create-slug"}) {
		t.Errorf("createKinds = %v", got)
	}
	if got := sentFields(&client.Exchange{RequestBody: `{"title":"T","tags":"a, b"}`}); !slices.Equal(got, []string{"title", "tags"}) {
		t.Errorf("sentFields = %v", got)
	}
}
