package reference

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
)

// Storage is everything a server stores, what the API hides included (the
// custom fields kept with each page, the image files), in a deterministic
// form: for tests that compare a server before and after a run. Two
// servers holding the same content give equal Storage, whatever order the
// content was written in; the creation-order counter is left out. The users
// are not included: no endpoint writes them.
type Storage struct {
	Pages      []StoredPage
	Tags       []StoredTerm
	Categories []StoredTerm
	// Settings holds every setting as name=JSON value, in stored order.
	Settings []string
	// Files lists the files of every page, by page uuid then upload order.
	Files []StoredFile
	// Images lists the stored image paths (site-wide and per page), sorted.
	Images []string
}

// StoredPage is a page as stored: the fields the API reads from, and the
// ones it does not show.
type StoredPage struct {
	Key, UUID, Title, Description, Type, Content, Date, Username, Category string
	Tags                                                                   []string
	CoverImage, Template                                                   string
	Position                                                               int
	NoIndex, NoFollow, NoArchive                                           bool
	// CustomFields are the names of the custom fields stored with the page
	// (see BenignCustomFieldsForever), sorted. The API never shows them.
	CustomFields []string
}

// StoredTerm is a stored tag or category.
type StoredTerm struct {
	Key, Name, Description, Template string
}

// StoredFile is a file stored with a page.
type StoredFile struct {
	PageUUID, Filename, Mime string
	Size                     int64
	Thumbnail                bool
}

// Storage returns a snapshot of everything the server stores. In the file
// mode it reads the index files as a request would (without their lock),
// so take it while no request is in flight.
func (s *Server) Storage() Storage {
	idx := s.mem
	if s.disk != nil {
		idx = s.disk.load()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return (&view{s, idx, s.up}).storage()
}

func (s *view) storage() Storage {
	var st Storage
	for _, k := range sortedKeys(s.pages) {
		p := s.pages[k]
		st.Pages = append(st.Pages, StoredPage{
			Key: p.key, UUID: p.uuid, Title: p.title, Description: p.description, Type: p.typ, Content: p.content,
			Date: p.date, Username: p.username, Category: p.category, Tags: append([]string{}, p.tags...),
			CoverImage: p.coverImage, Template: p.template, Position: p.position,
			NoIndex: p.noindex, NoFollow: p.nofollow, NoArchive: p.noarchive, CustomFields: sortedKeys(p.customFields),
		})
	}
	for _, k := range sortedKeys(s.tags) {
		t := s.tags[k]
		st.Tags = append(st.Tags, StoredTerm{t.key, t.name, t.description, t.template})
	}
	for _, k := range sortedKeys(s.cats) {
		c := s.cats[k]
		st.Categories = append(st.Categories, StoredTerm{c.key, c.name, c.description, c.template})
	}
	for _, m := range s.settings {
		v, _ := json.Marshal(m.v)
		st.Settings = append(st.Settings, m.k+"="+string(v))
	}
	for _, uuid := range sortedKeys(s.files) {
		recs := append([]*fileRec(nil), s.files[uuid]...)
		sort.SliceStable(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
		for _, f := range recs {
			st.Files = append(st.Files, StoredFile{uuid, f.filename, f.mime, f.size, f.thumb})
		}
	}
	st.Images = sortedKeys(s.images)
	return st
}

// Lines renders the snapshot one stored record a line ("page alpha-post
// {...}"), in a fixed order.
func (st Storage) Lines() []string {
	var out []string
	add := func(kind, key string, v any) {
		b, _ := json.Marshal(v)
		out = append(out, kind+" "+key+" "+string(b))
	}
	for _, p := range st.Pages {
		add("page", p.Key, p)
	}
	for _, t := range st.Tags {
		add("tag", t.Key, t)
	}
	for _, c := range st.Categories {
		add("category", c.Key, c)
	}
	for _, kv := range st.Settings {
		out = append(out, "setting "+kv)
	}
	for _, f := range st.Files {
		add("file", f.PageUUID+"/"+f.Filename, f)
	}
	for _, img := range st.Images {
		add("image", img, true)
	}
	return out
}

// Diff lists what differs from st in after: "- line" for a record st holds
// and after does not (or holds changed), "+ line" for the reverse. Empty
// when both hold the same.
func (st Storage) Diff(after Storage) []string {
	before, now := st.Lines(), after.Lines()
	var out []string
	for _, l := range before {
		if !slices.Contains(now, l) {
			out = append(out, "- "+l)
		}
	}
	for _, l := range now {
		if !slices.Contains(before, l) {
			out = append(out, "+ "+l)
		}
	}
	return out
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
