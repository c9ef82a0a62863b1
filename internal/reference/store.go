package reference

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

const dateLayout = "2006-01-02 15:04:05"

// page is a stored page.
type page struct {
	key         string
	uuid        string
	title       string // HTML-encoded once
	description string // HTML-encoded once
	typ         string
	content     string // Markdown source as sent
	date        string // raw publish date, dateLayout, site timezone
	username    string
	category    string
	tags        []string // tag keys, in the order given
	// tagNames is the name this page stored for each of its tags: the
	// page's own tags map, which its page object shows.
	tagNames   map[string]string
	coverImage string // filename, absolute URL, or ""
	position   int
	template   string
	noindex    bool
	nofollow   bool
	noarchive  bool
	seq        int64 // creation order
	// customFields names the custom fields stored with the page; the API
	// never shows them (see BenignCustomFieldsForever).
	customFields map[string]bool
}

// pageOf is the page a fixture (or an index file's record) describes.
func pageOf(fp fixtures.Page) *page {
	return &page{
		key: fp.Key, uuid: fp.UUID, title: fp.Title, description: fp.Description, typ: fp.Type,
		content: fp.Content, date: fp.Date, username: fp.Username, category: fp.Category,
		tags: append([]string(nil), fp.Tags...), coverImage: fp.CoverImage, position: fp.Position,
		template: fp.Template, noindex: fp.NoIndex, nofollow: fp.NoFollow, noarchive: fp.NoArchive,
	}
}

// record is p as a fixture describes it (what an index file stores, less
// the creation order and custom fields).
func (p *page) record() fixtures.Page {
	return fixtures.Page{
		Key: p.key, UUID: p.uuid, Title: p.title, Description: p.description, Type: p.typ, Content: p.content,
		Date: p.date, Username: p.username, Category: p.category, Tags: p.tags, CoverImage: p.coverImage,
		Position: p.position, Template: p.template, NoIndex: p.noindex, NoFollow: p.nofollow, NoArchive: p.noarchive,
	}
}

func (p *page) clone() *page {
	c := *p
	c.tags = append([]string(nil), p.tags...)
	c.tagNames = maps.Clone(p.tagNames)
	c.customFields = maps.Clone(p.customFields)
	return &c
}

// term is a tag or a category.
type term struct {
	key, name, description, template string
}

// fileRec is a file attached to a page.
type fileRec struct {
	filename string
	mime     string
	size     int64
	thumb    bool
	seq      int64 // upload order
}

var pageTypes = map[string]bool{"published": true, "draft": true, "static": true, "sticky": true, "scheduled": true}

// indexed reports whether tag and category lists name the page: only
// published, static and sticky pages, like the previous release.
// host: Tags::reindex in bl-kernel/tags.class.php (DB_TAGS_TYPES), Categories::reindex
func indexed(p *page) bool {
	return p.typ == "published" || p.typ == "static" || p.typ == "sticky"
}

// load seeds the indexes and uploads of s from the fixtures.
func (s *view) load(seed *fixtures.Seed) error {
	for _, t := range seed.Tags {
		s.tags[t.Key] = &term{t.Key, t.Name, t.Description, t.Template}
	}
	for _, c := range seed.Categories {
		s.cats[c.Key] = &term{c.Key, c.Name, c.Description, c.Template}
	}
	keys := make([]string, 0, len(seed.Settings))
	for k := range seed.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fromJSONNumber(seed.Settings[k])
		if text, ok := v.(string); ok && k == "customFields" && !s.mutated(BenignSettingsAsSent) {
			v = sanitise(text) // stored as the host's Site::set stores every value: HTML-encoded once
		}
		s.settings = append(s.settings, kv{k, v})
	}
	for _, fp := range seed.Pages {
		if _, err := time.Parse(dateLayout, fp.Date); err != nil {
			return fmt.Errorf("reference: fixture page %q: %w", fp.Key, err)
		}
		p := pageOf(fp)
		p.seq, p.customFields = s.nextSeq(), s.withCustomFields(nil) // the seed's fields, as the host keeps them
		p.tagNames = map[string]string{}
		for _, k := range p.tags {
			p.tagNames[k] = k
			if t := s.tags[k]; t != nil {
				p.tagNames[k] = t.name // the seed's pages stored the names the seed's tags have
			}
		}
		s.pages[fp.Key] = p
	}
	for _, f := range seed.Files {
		p := s.pages[f.Page]
		if p == nil {
			return fmt.Errorf("reference: fixture file %q: no page %q", f.Filename, f.Page)
		}
		s.files[p.uuid] = append(s.files[p.uuid], &fileRec{f.Filename, f.Mime, f.Size, f.Thumbnail, s.nextUploadSeq()})
	}
	return nil
}

// fromJSONNumber turns a number decoded with UseNumber into an int64, or
// a float64 when it is not an integer; other values stay as they are.
func fromJSONNumber(v any) any {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return i
		} else if f, err := n.Float64(); err == nil {
			return f
		}
	}
	return v
}

// location is the site timezone.
func (s *view) location() *time.Location {
	if v, ok := s.setting("timezone").(string); ok && v != "" {
		if loc, err := time.LoadLocation(v); err == nil {
			return loc
		}
	}
	return time.UTC
}

func (s *view) setting(name string) any {
	for _, m := range s.settings {
		if m.k == name {
			return m.v
		}
	}
	return nil
}

// sortedPages returns the pages that keep passes, newest first (date, then
// creation order, then key).
func (s *view) sortedPages(keep func(*page) bool) []*page {
	var out []*page
	for _, p := range s.pages {
		if keep(p) {
			out = append(out, p)
		}
	}
	sortNewestFirst(out)
	return out
}

// sortNewestFirst sorts pages by date, newest first, then by creation
// order, newest first, then by key.
func sortNewestFirst(pages []*page) {
	sort.Slice(pages, func(i, j int) bool {
		a, b := pages[i], pages[j]
		if a.date != b.date {
			return a.date > b.date
		}
		if a.seq != b.seq {
			return a.seq > b.seq
		}
		return a.key < b.key
	})
}

// uniqueKey returns key when it is self's key or no page has it, else
// key-0, key-1, ... the first no page has (self's key counts as taken).
// host: Pages::generateKey in bl-kernel/pages.class.php
func (s *view) uniqueKey(key string, self *page) string {
	if self != nil && key == self.key {
		return key
	}
	if _, taken := s.pages[key]; !taken {
		return key
	}
	for i := 0; ; i++ {
		k := key + "-" + strconv.Itoa(i)
		if _, taken := s.pages[k]; !taken {
			return k
		}
	}
}

// slugOf is the last segment of a key derived from text (a slug sent, or
// slugSource's text): cleanURL of it, "empty" when text or what cleanURL
// leaves is empty ("", "0" or blank).
// host: Pages::generateKey in bl-kernel/pages.class.php
func slugOf(text string, keepCase bool) string {
	if isEmptyText(text) {
		text = "empty"
	}
	if slug := cleanURL(text, keepCase); !isEmptyText(slug) {
		return slug
	}
	return "empty"
}

// children returns the direct children of key, sorted by key.
func (s *view) children(key string) []*page {
	var out []*page
	for k, p := range s.pages {
		if parentOf(k) == key {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// pagesURL is where the pages live: the base URL, the uriPage setting
// without its slashes, and a slash ({base}/ for uriPage "/", {base}/p/ for
// "/p/"); a page's permalink is it plus the page's full key, a child's
// parent/child included.
// host: Page::permalink in bl-kernel/pagex.class.php (DOMAIN_PAGES, bl-kernel/boot/init.php)
func (s *view) pagesURL(base string) string {
	filter, _ := s.setting("uriPage").(string)
	return strings.TrimRight(base+"/"+strings.Trim(filter, "/"), "/") + "/"
}

// readTime is the time of a read for the volatile-field variants: the
// clock, made strictly increasing so that no two reads give the same value.
// The caller holds the lock.
func (s *Server) readTime() string {
	now := s.now()
	if !now.After(s.lastRead) {
		now = s.lastRead.Add(time.Microsecond)
	}
	s.lastRead = now
	return now.UTC().Format("2006-01-02T15:04:05.000000Z07:00")
}

func (s *view) pageObjs(ps []*page, base string) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		out = append(out, s.pageObj(p, base))
	}
	return out
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}
