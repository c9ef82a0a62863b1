package reference

import (
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// The kinds of write of the write table, as the server recognises them,
// and the lag each leaves for its view (cellwrites.go).

// pageWrite is one write request, as the lags need it.
type pageWrite struct {
	v      *view
	c      matched
	before snapshot
	resp   response
	ok     bool   // carried out: a successful 2xx
	key    string // the page key it addressed ("" for a create and an image)
	newKey string // the page's key after a create or an edit ("" when none)
}

func writeOf(v *view, c matched, before snapshot, resp response) pageWrite {
	w := pageWrite{v: v, c: c, before: before, resp: resp,
		ok: resp.kind == kindSuccess && resp.code >= 200 && resp.code < 300}
	if c.rt.key != "" {
		w.key = v.targetKey(c.rt)
	}
	data, _ := member(resp.body, "data").(obj)
	w.newKey, _ = member(data, "key").(string)
	if c.rt.endpoint == "images" {
		w.key = w.uploadedKey()
	}
	return w
}

// page reports whether the write is one of a page or of its files.
func (w pageWrite) page() bool {
	return w.c.rt.endpoint == "pages" || w.c.rt.endpoint == "files" || w.c.rt.endpoint == "images"
}

// touched are the keys of the pages the write acted on.
func (w pageWrite) touched() []string {
	return slices.DeleteFunc([]string{w.key, w.newKey}, func(k string) bool { return k == "" })
}

// method tells whether the write is method to /api/pages (keyed: with a
// key).
func (w pageWrite) is(method string, keyed bool) bool {
	return w.c.rt.endpoint == "pages" && w.c.rt.method == method && (w.c.rt.key != "") == keyed
}

// lagOf is the lag a write of kind leaves, false when the write is none
// of that kind.
func (w pageWrite) lagOf(kind string) (lag, bool) {
	if field, ok := strings.CutPrefix(kind, "create-"); ok {
		return w.createLag(field)
	}
	if field, ok := strings.CutPrefix(kind, "edit-"); ok {
		return w.editLag(func(now, was *page) bool { return w.c.in.has(field) && revertField(now, was, field) })
	}
	switch kind {
	case coverage.WriteRename:
		return w.renameLag()
	case coverage.WriteRemoveTag:
		return w.editLag(retag)
	case coverage.WriteMoveCategory:
		return w.editLag(func(now, was *page) bool {
			moved := was.category != "" && now.category != was.category
			now.category = was.category
			return moved
		})
	case coverage.WriteDelete:
		if w.ok && w.is(http.MethodDelete, true) && w.before.pages[w.key] != nil {
			return lag{key: w.key, pages: map[string]*page{w.key: w.before.pages[w.key]}}, true
		}
	case coverage.WriteUpload:
		return w.uploadLag()
	case coverage.WriteCollide:
		return w.collideLag()
	case coverage.WriteRefused400, coverage.WriteRefused401, coverage.WriteRefused404:
		return w.refusedLag(kind)
	}
	return lag{}, false
}

// createLag: the page a create made, shown as created without field (with
// the other type, for type: a create without one gives the default).
func (w pageWrite) createLag(field string) (lag, bool) {
	made := w.v.pages[w.newKey]
	if !w.ok || !w.is(http.MethodPost, false) || !w.c.in.has(field) || made == nil {
		return lag{}, false
	}
	p := made.clone()
	switch field {
	case "title":
		p.title = ""
	case "description":
		p.description = ""
	case "content":
		p.content = ""
	case "date":
		p.date = w.v.now().In(w.v.location()).Format(dateLayout)
	case "coverImage":
		p.coverImage = ""
	case "tags":
		p.tags, p.tagNames = nil, nil
	case "category":
		p.category = ""
	case "type":
		p.typ = map[bool]string{true: "published", false: "draft"}[p.typ == "draft"]
	case "slug":
		p.key = w.v.uniqueKey(joinKey(parentOf(made.key), slugOf(slugSource(p.title, p.content), false)), made)
	}
	pages := map[string]*page{w.newKey: nil}
	pages[p.key] = p
	return lag{key: w.newKey, pages: pages}, true
}

// editLag: the page an edit left, shown with what undo changes back from
// the page before the edit (false when undo finds nothing of its kind).
func (w pageWrite) editLag(undo func(now, was *page) bool) (lag, bool) {
	was, now := w.before.pages[w.key], w.v.pages[w.newKey]
	if !w.ok || !w.is(http.MethodPut, true) || was == nil || now == nil {
		return lag{}, false
	}
	p := now.clone()
	if !undo(p, was) {
		return lag{}, false
	}
	return lag{key: w.newKey, pages: map[string]*page{w.newKey: p}}, true
}

// revertField sets field of now back to its value in was; false for a
// field the write table has no edit row of.
func revertField(now, was *page, field string) bool {
	switch field {
	case "title":
		now.title = was.title
	case "description":
		now.description = was.description
	case "content":
		now.content = was.content
	case "date":
		now.date = was.date
	case "coverImage":
		now.coverImage = was.coverImage
	case "tags":
		now.tags, now.tagNames = slices.Clone(was.tags), maps.Clone(was.tagNames)
	case "category":
		now.category = was.category
	case "type":
		now.typ = was.typ
	default:
		return false
	}
	return true
}

// retag puts back on now the tags an edit took off was; false when it
// took none off.
func retag(now, was *page) bool {
	removed := false
	for _, k := range was.tags {
		if !slices.Contains(now.tags, k) {
			removed = true
			now.tags = append(now.tags, k)
			if now.tagNames == nil {
				now.tagNames = map[string]string{}
			}
			now.tagNames[k] = was.tagName(k)
		}
	}
	return removed
}

// renameLag: a page an edit moved to another key, shown at its old key.
func (w pageWrite) renameLag() (lag, bool) {
	now := w.v.pages[w.newKey]
	if !w.ok || !w.is(http.MethodPut, true) || now == nil || w.newKey == w.key {
		return lag{}, false
	}
	p := now.clone()
	p.key = w.key
	pages := map[string]*page{w.newKey: nil}
	pages[w.key] = p
	return lag{key: w.newKey, oldKey: w.key, pages: pages}, true
}

// uploadedKey is the key of the page whose files an image upload changed
// ("" for none).
func (w pageWrite) uploadedKey() string {
	for u, fs := range w.v.files {
		if !slices.Equal(fs, w.before.files[u]) {
			if p := w.v.pageByUUID(u); p != nil {
				return p.key
			}
		}
	}
	return ""
}

// uploadLag: a page's files shown without the upload.
func (w pageWrite) uploadLag() (lag, bool) {
	up := w.c.rt.endpoint == "images" || (w.c.rt.endpoint == "files" && w.c.rt.method == http.MethodPost)
	if !w.ok || !up || w.key == "" {
		return lag{}, false
	}
	files := map[string][]*fileRec{}
	for u, fs := range w.v.files {
		if !slices.Equal(fs, w.before.files[u]) {
			files[u] = w.before.files[u]
		}
	}
	return lag{key: w.key, files: files}, len(files) > 0
}

// collideLag: a create whose slug (sent) is another page's key, which gave
// its page another key: the other page shown as the new one, at its key.
func (w pageWrite) collideLag() (lag, bool) {
	slug, _, _ := w.c.in.str("slug")
	other, made := w.before.pages[slug], w.v.pages[w.newKey]
	if !w.ok || !w.is(http.MethodPost, false) || other == nil || made == nil || w.newKey == slug {
		return lag{}, false
	}
	p := made.clone()
	p.key, p.uuid = slug, other.uuid
	return lag{key: slug, pages: map[string]*page{slug: p}}, true
}

// refusedLag: a write refused with 400 (for a field it sent: as if sent
// without it), 401 (as if its authentication token were valid) or 404 (an
// edit of a key no page has: as if it stored a page there), shown as
// carried out: the handler run on a copy of the state, and what it changed
// there.
func (w pageWrite) refusedLag(kind string) (lag, bool) {
	code := map[string]int{coverage.WriteRefused400: http.StatusBadRequest, coverage.WriteRefused401: http.StatusUnauthorized,
		coverage.WriteRefused404: http.StatusNotFound}[kind]
	if w.resp.code != code || !w.page() {
		return lag{}, false
	}
	sb := w.v.sandbox()
	rt, in := w.c.rt, w.c.in
	switch kind {
	case coverage.WriteRefused400:
		if rt.endpoint != "pages" || w.resp.kind != kindHandlerError {
			return lag{}, false
		}
		for _, field := range []string{"type", "date", "position", "category", "parent", "slug"} {
			if in.has(field) {
				if a := w.c.h(sb, w.c.r, rt, without(in, field), adminUser); a.kind == kindSuccess {
					break
				}
				sb = w.v.sandbox()
			}
		}
	case coverage.WriteRefused401:
		w.c.h(sb, w.c.r, rt, in, adminUser)
	case coverage.WriteRefused404:
		if !w.is(http.MethodPut, true) {
			return lag{}, false
		}
		sb.storeMissing(w.key, in)
	}
	l := w.v.changedIn(sb)
	l.key = w.key
	for k := range l.pages {
		if l.key == "" {
			l.key = k
		}
	}
	return l, len(l.pages)+len(l.files) > 0
}

// sandbox is a copy of the state a handler may change without touching
// this one's: every page, term and file list copied.
func (s *view) sandbox() *view {
	idx := &indexes{pages: make(map[string]*page, len(s.pages)), tags: maps.Clone(s.tags), cats: maps.Clone(s.cats),
		settings: s.settings, seq: s.seq}
	for k, p := range s.pages {
		idx.pages[k] = p.clone()
	}
	up := &uploads{files: make(map[string][]*fileRec, len(s.files)), images: maps.Clone(s.images), uploadSeq: s.uploadSeq}
	for u, fs := range s.files {
		up.files[u] = slices.Clone(fs)
	}
	return &view{s.Server, idx, up}
}

// changedIn is the lag that shows what the state sb holds where it
// differs from s.
func (s *view) changedIn(sb *view) lag {
	l := lag{pages: map[string]*page{}, files: map[string][]*fileRec{}}
	for _, k := range slices.Concat(slices.Collect(maps.Keys(s.pages)), slices.Collect(maps.Keys(sb.pages))) {
		if !samePage(s.pages[k], sb.pages[k]) {
			l.pages[k] = sb.pages[k]
		}
	}
	for _, u := range slices.Concat(slices.Collect(maps.Keys(s.files)), slices.Collect(maps.Keys(sb.files))) {
		if !reflect.DeepEqual(s.files[u], sb.files[u]) {
			l.files[u] = sb.files[u]
		}
	}
	return l
}

// samePage reports whether a and b (either nil) store the same page.
func samePage(a, b *page) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(a.record(), b.record()) && maps.Equal(a.tagNames, b.tagNames)
}
