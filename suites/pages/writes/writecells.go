package writes

// The write × view table of the coverage map (internal/coverage): each
// view read after a write carries the kinds of that write (a create
// sending each field, an edit of each field, a rename, a tag taken off, a
// move to another category, a delete, a refusal, a collision), and a judge
// that asserted on a view marks the cells of those kinds on it. The table
// keeps the marks of the rules it names for each cell: which rule can see
// which write on which view is its to say.

import (
	"net/http"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// markViews notes that the running spec judged views after v's write.
func (s *suite) markViews(v *seen, views ...coverage.Way) {
	var ids []coverage.ID
	for _, k := range v.kinds {
		for _, w := range views {
			ids = append(ids, coverage.WriteCell(k, w))
		}
	}
	s.t.Exercised(ids...)
}

// markKind notes that the running spec judged views after a write of
// kind.
func (s *suite) markKind(kind string, views ...coverage.Way) {
	s.markViews(&seen{kinds: []string{kind}}, views...)
}

// viewOf is the column of the write table an answer of ex is ("" for
// none: a write's own answer).
func (s *suite) viewOf(ex *client.Exchange) coverage.Way {
	if ex == nil || ex.Method != http.MethodGet {
		return ""
	}
	return map[string]coverage.Way{
		"/api/pages": coverage.ViewList, "/api/pages/{key}": coverage.ViewSingle,
		"/api/tags": coverage.ViewTagList, "/api/tags/{key}": coverage.ViewTag,
		"/api/categories": coverage.ViewCatList, "/api/categories/{key}": coverage.ViewCategory,
		"/api/files/{key}": coverage.ViewFiles,
	}[s.t.CrossCutting.Endpoint(ex)]
}

// sentFields are the fields of the JSON object a write sent.
func sentFields(ex *client.Exchange) []string {
	var out []string
	gjson.Parse(ex.RequestBody).ForEach(func(k, _ gjson.Result) bool {
		out = append(out, k.Str)
		return true
	})
	return out
}

// createKinds are the kinds of a create that sent fields.
func createKinds(fields []string) []string {
	var out []string
	for _, f := range coverage.WriteCreateFields() {
		if slices.Contains(fields, f) {
			out = append(out, coverage.CreateKind(f))
		}
	}
	return out
}

// editKinds are the kinds of an edit that sent fields, answered answer,
// of a page that read as was before it and reads as now after it (now
// absent when it does not read), moved from key from to at: a refusal, or
// the fields sent, a rename, a tag taken off, a move to another category.
func editKinds(fields []string, answer *client.Exchange, was, now gjson.Result, from, at string) []string {
	if answer.StatusErr() != nil {
		return nil
	}
	switch {
	case answer.Status == http.StatusBadRequest:
		return []string{coverage.WriteRefused400}
	case answer.Status < 200 || answer.Status >= 300:
		return nil
	}
	var out []string
	for _, f := range coverage.WriteEditFields() {
		if slices.Contains(fields, f) {
			out = append(out, coverage.EditKind(f))
		}
	}
	if at != "" && at != from {
		out = append(out, coverage.WriteRename)
	}
	if !now.Exists() {
		return out
	}
	for _, k := range termKeys(was) {
		if !slices.Contains(termKeys(now), k) {
			out = append(out, coverage.WriteRemoveTag)
			break
		}
	}
	if c := was.Get("category").String(); c != "" && now.Get("category").String() != c {
		out = append(out, coverage.WriteMoveCategory)
	}
	return out
}

// kindFields are the fields of the page object a kind of write changes,
// as PAGE-VIEWS-AGREE compares them (the content by digest in a term's
// pages).
func kindFields(kind string) []string {
	field := strings.TrimPrefix(strings.TrimPrefix(kind, "create-"), "edit-")
	switch field {
	case "content":
		return []string{"content", "contentRaw"}
	case "date":
		return []string{"date", "dateRaw", "dateUTC"}
	case "coverImage":
		return []string{"coverImage", "coverImageFilename"}
	case "slug", coverage.WriteRename:
		return []string{"key", "slug", "permalink"}
	case coverage.WriteRemoveTag:
		return []string{"tags"}
	case coverage.WriteMoveCategory:
		return []string{"category"}
	case coverage.WriteRefused400:
		return []string{"type", "description"} // what the writes refused for their type send
	}
	return []string{field}
}

// shows reports whether a view of a page shows field (its digest, for
// the content a term's pages keep as one).
func shows(view coverkit.View, field string) bool {
	return view.Obj.Get(field).Exists() || view.Obj.Get(pagelist.DigestMember(field)).Exists()
}

// markPageViews marks, after v's write, the views PAGE-VIEWS-AGREE
// compared on the fields the write's kinds change: each view (the
// write's own answer aside) that showed such a field another view showed
// too.
func (s *suite) markPageViews(v *seen, views []coverkit.View) {
	for _, kind := range v.kinds {
		for _, f := range kindFields(kind) {
			var showing []coverage.Way
			for _, view := range views {
				if shows(view, f) {
					showing = append(showing, s.viewOf(view.Ex))
				}
			}
			if len(showing) < 2 {
				continue
			}
			for _, at := range showing {
				if at != "" {
					s.t.Exercised(coverage.WriteCell(kind, at))
				}
			}
		}
	}
}

// sameContent compares the content of the page, as its views other than
// the term's pages show it, with the digest of it a term's pages keep
// (pagelist.DigestMember).
func sameContent(check *coverkit.Check, what string, views []coverkit.View) {
	for _, f := range []string{"content", "contentRaw"} {
		var whole *coverkit.View
		for i := range views {
			if views[i].Obj.Get(f).Exists() {
				whole = &views[i]
				break
			}
		}
		if whole == nil {
			continue
		}
		want := pagelist.ContentDigest(whole.Obj.Get(f))
		for _, view := range views {
			if kept := view.Obj.Get(pagelist.DigestMember(f)); kept.Exists() {
				check.Exercised(pageViewCell(f))
				if kept.Str != want {
					check.Problem(view.Ex, "%s: %s differs between %s and %s", what, f, whole.Name, view.Name)
				}
			}
		}
	}
}
