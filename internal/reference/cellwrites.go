package reference

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// The mutants of the write × view table (coverage's write section), one
// per testable cell, "cell-write-<kind>-<view>": after a write of the
// kind, that one view shows the page as it was before that part of the
// write (a field as before, the page at its old key, the tag still on it,
// the page still there after its delete, the file list without the
// upload), or, after a refused write or a create whose slug was taken, as
// if the write had been carried out; until the page is written again.
// Every other view shows the write. The server keeps, for each such write,
// a lag: the pages (and files) that view shows instead of the current
// ones; a read of the view is answered by the handler on the pages with
// the lags applied. How each kind of write is recognised and what its lag
// holds is cellwrites_kinds.go's.

// writeCell is an enabled cell of the write section.
type writeCell struct {
	kind string
	view coverage.Way
}

// enabledWriteCells are the write cells among cells.
func enabledWriteCells(cells []coverage.ID) []writeCell {
	var out []writeCell
	for _, id := range cells {
		if _, kind, view := id.Parts(); coverage.IsWriteCell(id) {
			out = append(out, writeCell{kind, view})
		}
	}
	return out
}

// lag is what a view shows in place of the site after one write: pages
// by key (nil: no page there) and file lists by page uuid.
type lag struct {
	kind string
	// key is the page the write left (or addressed): a later write that
	// succeeds on it ends the lag.
	key string
	// oldKey, after a rename, is the key the page had: GET of it is the
	// old key's view, not the single page's.
	oldKey string
	pages  map[string]*page
	files  map[string][]*fileRec
}

// lagsKey is the memo of the lags: not a mutant of the registry.
const lagsKey Mutant = "cell-write-lags"

// lags are the lags in force, oldest first. The caller holds s.mu.
func (s *Server) lags() *[]lag {
	return memo(s, lagsKey, func() *[]lag { return &[]lag{} })
}

// withWriteCells is c's handling on the state it reads, with the write
// cells' mutants on: a write noted (the lags it ends and starts), a read
// of a view answered with the lags of that view applied.
func (s *Server) withWriteCells(c matched) func(v *view) response {
	if len(s.writeCells) == 0 {
		return c.on
	}
	return func(v *view) response {
		if !IsWrite(c.rt.method) {
			return c.on(s.lagged(v, c.rt))
		}
		before := snapshotOf(v)
		resp := c.on(v)
		s.noteWrite(v, c, before, resp)
		return resp
	}
}

// snapshot is the pages and files before a write.
type snapshot struct {
	pages map[string]*page
	files map[string][]*fileRec
}

// snapshotOf copies what a write may change in place: the page map (an
// edit stores a changed copy) and each file list (an upload rewrites it).
func snapshotOf(v *view) snapshot {
	files := make(map[string][]*fileRec, len(v.files))
	for u, fs := range v.files {
		files[u] = slices.Clone(fs)
	}
	return snapshot{pages: maps.Clone(v.pages), files: files}
}

// noteWrite ends the lags of the pages a successful write touched, then
// starts those the write's kinds call for.
func (s *Server) noteWrite(v *view, c matched, before snapshot, resp response) {
	w := writeOf(v, c, before, resp)
	if !w.page() {
		return
	}
	lags := s.lags()
	if w.ok {
		*lags = slices.DeleteFunc(*lags, func(l lag) bool { return slices.Contains(w.touched(), l.key) })
	}
	done := map[string]bool{}
	for _, wc := range s.writeCells {
		if done[wc.kind] {
			continue
		}
		done[wc.kind] = true
		if l, ok := w.lagOf(wc.kind); ok {
			l.kind = wc.kind
			*lags = append(*lags, l)
		}
	}
}

// viewOf is the view of the write table a read of rt is: "" for none.
func (s *Server) viewOf(rt route) coverage.Way {
	switch {
	case rt.endpoint == "pages" && rt.key == "":
		return coverage.ViewList
	case rt.endpoint == "pages":
		for _, l := range *s.lags() {
			if l.oldKey != "" && l.oldKey == rt.key {
				return coverage.ViewOldKey
			}
		}
		return coverage.ViewSingle
	case rt.endpoint == "tags" && rt.key == "":
		return coverage.ViewTagList
	case rt.endpoint == "tags":
		return coverage.ViewTag
	case rt.endpoint == "categories" && rt.key == "":
		return coverage.ViewCatList
	case rt.endpoint == "categories":
		return coverage.ViewCategory
	case rt.endpoint == "files":
		return coverage.ViewFiles
	}
	return ""
}

// lagged is v with the lags of the view rt reads applied (v itself when
// none is in force): the pages and files as the lags say, the tag index
// rebuilt from them as a page write rebuilds it.
func (s *Server) lagged(v *view, rt route) *view {
	if rt.method != http.MethodGet {
		return v
	}
	at := s.viewOf(rt)
	var apply []lag
	for _, l := range *s.lags() {
		if slices.Contains(s.writeCells, writeCell{l.kind, at}) {
			apply = append(apply, l)
		}
	}
	if len(apply) == 0 {
		return v
	}
	pages, files := maps.Clone(v.pages), maps.Clone(v.files)
	for _, l := range apply {
		for k, p := range l.pages {
			if p == nil {
				delete(pages, k)
			} else {
				pages[k] = p
			}
		}
		maps.Copy(files, l.files)
	}
	idx := &indexes{pages: pages, tags: map[string]*term{}, cats: v.cats, settings: v.settings, seq: v.seq}
	lv := &view{s, idx, &uploads{files: files, images: v.images, uploadSeq: v.uploadSeq}}
	lv.reindexTags(nil)
	return lv
}

// writeDescription says what the mutant of the write cell of kind on view
// does.
func writeDescription(kind string, at coverage.Way) string {
	view := map[coverage.Way]string{
		coverage.ViewList: "GET /api/pages", coverage.ViewSingle: "GET /api/pages/{key} of the page's key",
		coverage.ViewOldKey: "GET /api/pages/{key} of the key the page had", coverage.ViewTagList: "GET /api/tags",
		coverage.ViewTag: "GET /api/tags/{key}", coverage.ViewCatList: "GET /api/categories",
		coverage.ViewCategory: "GET /api/categories/{key}", coverage.ViewFiles: "GET /api/files/{key}",
	}[at]
	write, shown := writeWords(kind)
	return "After " + write + ", " + view + " shows " + shown + ", until the page is written again; every other view shows the write."
}

// writeWords are a kind of write and what its mutant's view shows after
// it, in words.
func writeWords(kind string) (write, shown string) {
	if field, ok := strings.CutPrefix(kind, "create-"); ok {
		if field == "type" {
			return "a create that sends a type", "the page with another (a draft, or published for a draft)"
		}
		return "a create that sends " + field, "the page as if created without " + field
	}
	if field, ok := strings.CutPrefix(kind, "edit-"); ok {
		return "an edit that sends " + field, "the page with its " + field + " as before the edit"
	}
	switch kind {
	case coverage.WriteRename:
		return "an edit that moves a page to a new key", "the page at its old key"
	case coverage.WriteRemoveTag:
		return "an edit that takes a tag off a page", "the page still carrying the tag"
	case coverage.WriteMoveCategory:
		return "an edit that moves a page to another category", "the page in its old category"
	case coverage.WriteDelete:
		return "a delete", "the page still there"
	case coverage.WriteUpload:
		return "an upload for a page", "the page's files without it"
	case coverage.WriteRefused400:
		return "a page write refused with 400 for a field", "what it would have made of the page without that field"
	case coverage.WriteRefused401:
		return "a page or file write refused with 401", "what it would have made had its authentication token been valid"
	case coverage.WriteRefused404:
		return "an edit of a key no page has, refused with 404", "a page stored there from the fields sent"
	case coverage.WriteCollide:
		return "a create whose slug is another page's key", "that other page replaced by the new one"
	}
	return kind, "it as before"
}
