package coverage

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestTable: every cell of the table has a well-formed ID that names it
// back, sits in a column of its section, and is either testable with rules
// or untestable with a reason.
func TestTable(t *testing.T) {
	seen := map[ID]bool{}
	for _, s := range Table() {
		for _, r := range s.Rows {
			if strings.Contains(r.Field, ".") || r.Field == "" {
				t.Errorf("%s: field %q: a field name holds no dot", s.ID, r.Field)
			}
			for w, c := range r.Cells {
				id := CellID(s.ID, r.Field, w)
				if !slices.Contains(s.Ways, w) {
					t.Errorf("cell %s: way %s is not a column of section %s", id, w, s.ID)
				}
				if sec, f, way := id.Parts(); sec != s.ID || f != r.Field || way != w {
					t.Errorf("cell %s splits into %s, %s, %s", id, sec, f, way)
				}
				if seen[id] {
					t.Errorf("cell %s twice", id)
				}
				seen[id] = true
				if c.Testable() == (len(c.Rules) == 0) {
					t.Errorf("cell %s: testable with rules, or untestable with a reason and none (%+v)", id, c)
				}
				if got, ok := Lookup(id); !ok || !slices.Equal(got.Rules, c.Rules) {
					t.Errorf("Lookup(%s) = %+v, %v", id, got, ok)
				}
			}
		}
	}
	if len(seen) != len(IDs()) {
		t.Errorf("IDs lists %d cells, the table has %d", len(IDs()), len(seen))
	}
	if got := ID("page.title.kind").MutantName(); got != "cell-page-title-kind" {
		t.Errorf("MutantName = %s", got)
	}
}

// TestJudged: what a request shows of the query parameters and the token
// placements fills the cells whose rules name the spec's rule, and only
// those; a refusal shows the missing or wrong token, an acceptance the
// valid one.
func TestJudged(t *testing.T) {
	for _, c := range []struct {
		name string
		rule string
		req  Request
		want []ID
	}{
		{"a filter sent", "PAGE-LIST-TYPE-FILTERS",
			Request{Method: "GET", Endpoint: "/api/pages", Query: []string{"draft", "published"}, TokenUse: UseValid, TokenIn: InQuery, AuthUse: UseMissing, Status: 200},
			[]ID{"query.draft.sent", "query.published.sent", "query.untagged.omitted"}},
		{"defaults", "PAGE-LIST-DEFAULT-FILTER",
			Request{Method: "GET", Endpoint: "/api/pages", TokenUse: UseValid, TokenIn: InQuery, AuthUse: UseMissing, Status: 200},
			[]ID{"query.published.omitted", "query.static.omitted", "query.sticky.omitted", "query.draft.omitted",
				"query.scheduled.omitted", "query.untagged.omitted", "query.pageNumber.omitted"}},
		{"a refused list", "PAGE-LIST-TYPE-FILTERS",
			Request{Method: "GET", Endpoint: "/api/pages", Query: []string{"draft"}, Status: 400}, nil},
		{"no token on a read", "AUTH-MISSING-TOKEN-400",
			Request{Method: "GET", Endpoint: "/api/tags", TokenUse: UseMissing, AuthUse: UseMissing, Status: 400},
			[]ID{"token.token-query-get.missing"}},
		{"a wrong token in a create", "AUTH-INVALID-TOKEN-401",
			Request{Method: "POST", Endpoint: "/api/pages", TokenUse: UseWrong, TokenIn: InBody, AuthUse: UseValid, AuthIn: InBody, Status: 401},
			[]ID{"token.token-body-post.wrong"}},
		{"no authentication on an edit", "AUTH-WRITE-NEEDS-AUTH",
			Request{Method: "PUT", Endpoint: "/api/pages/{key}", TokenUse: UseValid, TokenIn: InBody, AuthUse: UseMissing, Status: 401},
			[]ID{"token.authentication-body-put.missing"}},
		{"a delete with a JSON body", "AUTH-DELETE-JSON-BODY",
			Request{Method: "DELETE", Endpoint: "/api/pages/{key}", TokenUse: UseValid, TokenIn: InJSONBody, AuthUse: UseValid, AuthIn: InJSONBody, Status: 200},
			[]ID{"token.token-jsonbody-delete.valid", "token.authentication-jsonbody-delete.valid"}},
		{"tokens in headers", "AUTH-TOKEN-IN-QUERY",
			Request{Method: "GET", Endpoint: "/api/tags", TokenUse: UseValid, TokenIn: InHeader, Status: 200}, nil},
		{"authentication on a plain read", "AUTH-SETTINGS-READ-NEEDS-AUTH",
			Request{Method: "GET", Endpoint: "/api/tags", TokenUse: UseValid, TokenIn: InQuery, AuthUse: UseMissing, Status: 200}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewRecorder()
			r.Judged(c.rule, []Request{c.req})
			var got []ID
			for id := range r.Marks() {
				got = append(got, id)
			}
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("marked %v, want %v", got, want)
			}
		})
	}
}

// TestBuild: the map counts its cells, says why an empty one is empty,
// lists marks of cells the table lacks, and reads back from JSON.
func TestBuild(t *testing.T) {
	r := NewRecorder()
	r.Mark("page.title.kind", "PAGE-LIST-SHAPE")
	r.Mark("page.title.kind", "PAGE-LIST-SHAPE")
	r.Mark("page.nosuch.kind", "PAGE-LIST-SHAPE")
	m := Build(r.Marks(), func(rule string) string {
		if rule == "PAGE-VIEWS-AGREE" {
			return "not checked (read-only run)"
		}
		return ""
	})
	if c, ok := m.Cell("page.title.kind"); !ok || c.Status != Filled || c.Checks != 2 || !slices.Equal(c.Rules, []string{"PAGE-LIST-SHAPE"}) {
		t.Errorf("page.title.kind: %+v", c)
	}
	if c, _ := m.Cell("page.title.views"); c.Status != Empty || !strings.Contains(c.Reason, "PAGE-VIEWS-AGREE: not checked (read-only run)") {
		t.Errorf("page.title.views: %+v", c)
	}
	if c, _ := m.Cell("body.position.create"); c.Status != Untestable || c.Reason == "" {
		t.Errorf("body.position.create: %+v", c)
	}
	if c, _ := m.Cell("user.codepen.views"); c.Status != None {
		t.Errorf("user.codepen.views: %+v", c)
	}
	cnt := m.Counts
	if cnt.Filled != 1 || cnt.Testable != cnt.Filled+cnt.Empty || cnt.Cells != cnt.Testable+cnt.Untestable {
		t.Errorf("counts %+v", cnt)
	}
	if !slices.Equal(m.Unknown, []string{"page.nosuch.kind"}) {
		t.Errorf("unknown %v", m.Unknown)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Map
	if err := json.Unmarshal(b, &back); err != nil || back.Counts != m.Counts || len(back.Cells(Filled)) != 1 {
		t.Errorf("read back from JSON: %v, %+v", err, back.Counts)
	}
	var text, md bytes.Buffer
	if err := m.WriteText(&text); err != nil || !strings.Contains(text.String(), "2 by PAGE-LIST-SHAPE") ||
		!strings.Contains(text.String(), "EMPTY page.title.views") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
	if err := m.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "### 2.1 Page object") {
		t.Errorf("markdown: %v", err)
	}
}

// TestWriteSection: the write table has a cell for every kind of write on
// every view, a read back of a body field on the page itself fills the
// single page's cell of its create or edit, and a write cell takes the
// marks of the rules it names only.
func TestWriteSection(t *testing.T) {
	for _, kind := range WriteKinds() {
		for _, view := range WriteViews() {
			if _, ok := Lookup(WriteCell(kind, view)); !ok {
				t.Errorf("no cell for %s on %s", kind, view)
			}
		}
	}
	if got := ReadBackWriteCell(CellID("body", "title", Create)); got != "write.create-title.single" {
		t.Errorf("the read back of body.title.create fills %q", got)
	}
	if got := ReadBackWriteCell(CellID("body", "title", Kept)); got != "" {
		t.Errorf("a field kept fills %q", got)
	}
	if got := WriteCell(CreateKind("coverImage"), ViewTag).MutantName(); got != "cell-write-create-coverimage-tag" {
		t.Errorf("MutantName = %s", got)
	}
	r := NewRecorder()
	r.Mark(WriteCell(WriteRename, ViewOldKey), "PAGE-EDIT-KEY-CHANGE")
	r.Mark(WriteCell(WriteRename, ViewOldKey), "PAGE-VIEWS-AGREE")          // not a rule of the cell
	r.Mark(WriteCell(CreateKind("title"), ViewTagList), "PAGE-VIEWS-AGREE") // untestable
	marks := r.Marks()
	if len(marks) != 1 || marks[WriteCell(WriteRename, ViewOldKey)]["PAGE-EDIT-KEY-CHANGE"] != 1 {
		t.Errorf("marks %v, want the rename's old key by PAGE-EDIT-KEY-CHANGE only", marks)
	}
	var text bytes.Buffer
	if err := Build(marks, nil).WriteText(&text); err != nil || !strings.Contains(text.String(), "  write ") ||
		!strings.Contains(text.String(), "oldkey   the key the page had") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
}
