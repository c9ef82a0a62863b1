package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/conformance-suite/conformance/fixtures"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The file mode (Options.StorageDir): the indexes are JSON files, built
// like the host's and as fragile. Every request reads each file whole at
// its start, without a lock; a file that is missing, empty, cut or not
// JSON of the expected shape reads as an empty index. A write rewrites
// the files it touched whole: truncate, then write in chunks, a pause
// before each, so that a read in between sees the file empty or cut. Each
// file has a writers' lock (the host's LOCK_EX), held only while the file
// is rewritten.

// The index files, in the order a write rewrites them.
const (
	pagesFile      = "pages.json"
	tagsFile       = "tags.json"
	categoriesFile = "categories.json"
	settingsFile   = "settings.json"
)

// rewriteChunks is how many writes rewrite one index file.
const rewriteChunks = 4

// The defaults of Options.StorageWorkTime and Options.StorageChunkPause:
// wide enough for requests side by side to lose data on loopback, small
// enough that a full run one write at a time takes about a second more
// than in memory.
const (
	DefaultStorageWorkTime   = 2 * time.Millisecond
	DefaultStorageChunkPause = 500 * time.Microsecond
)

// disk is the file mode's store.
type disk struct {
	dir        string
	chunkPause time.Duration
	// writing holds the writers' lock of each index file.
	writing map[string]*sync.Mutex
	// midRewrite, a test hook, runs when a file is truncated and partly
	// written, before its last chunk.
	midRewrite func(name string)
}

func newDisk(dir string, chunkPause time.Duration) *disk {
	d := &disk{dir: dir, chunkPause: chunkPause, writing: map[string]*sync.Mutex{}}
	for _, name := range []string{pagesFile, tagsFile, categoriesFile, settingsFile} {
		d.writing[name] = &sync.Mutex{}
	}
	return d
}

// pageRecord is a page as its index file holds it, under its key.
type pageRecord struct {
	fixtures.Page
	Seq          int64             `json:"seq"`
	CustomFields []string          `json:"customFields,omitempty"`
	TagNames     map[string]string `json:"tagNames,omitempty"`
}

// termRecord is a tag or a category as its index file holds it, under its
// key.
type termRecord struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Template    string `json:"template"`
}

// encodedIndexes are the contents of the index files.
type encodedIndexes struct{ pages, tags, cats, settings []byte }

func (e encodedIndexes) contentDiffers(o encodedIndexes) bool {
	return !bytes.Equal(e.pages, o.pages) || !bytes.Equal(e.tags, o.tags) || !bytes.Equal(e.cats, o.cats)
}

func (e encodedIndexes) settingsDiffer(o encodedIndexes) bool {
	return !bytes.Equal(e.settings, o.settings)
}

// encode renders the indexes as their files hold them.
func (idx *indexes) encode() encodedIndexes {
	pages := make(map[string]pageRecord, len(idx.pages))
	for k, p := range idx.pages {
		pages[k] = pageRecord{Page: p.record(), Seq: p.seq, CustomFields: slices.Sorted(maps.Keys(p.customFields)), TagNames: p.tagNames}
	}
	terms := func(m map[string]*term) []byte {
		recs := make(map[string]termRecord, len(m))
		for k, t := range m {
			recs[k] = termRecord{t.name, t.description, t.template}
		}
		return encodeJSON(recs)
	}
	return encodedIndexes{pages: encodeJSON(pages), tags: terms(idx.tags), cats: terms(idx.cats), settings: encodeSettings(idx.settings)}
}

func encodeJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of plain records always encode
	}
	return b
}

// encodeSettings renders the settings as a JSON object in stored order. A
// float keeps a decimal point, so that it reads back as a float.
func encodeSettings(settings dict) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range settings {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeJSON(m.k))
		b.WriteByte(':')
		if f, ok := m.v.(float64); ok {
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(s, ".e") {
				s += ".0"
			}
			b.WriteString(s)
			continue
		}
		b.Write(encodeJSON(m.v))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// decodeSettings reads a settings object in its order; false when data is
// not one.
func decodeSettings(data []byte) (dict, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	settings := dict{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		settings = append(settings, kv{t.(string), fromJSONNumber(v)})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false
	}
	return settings, true
}

// load reads every index file, whole and without a lock, as the host does
// at the start of every request. An index that cannot be read or parsed is
// empty.
func (d *disk) load() *indexes {
	idx := newIndexes()
	if pages, ok := readIndex[map[string]pageRecord](d, pagesFile); ok {
		for k, r := range pages {
			p := pageOf(r.Page)
			p.key, p.seq, p.tagNames = k, r.Seq, r.TagNames
			for _, name := range r.CustomFields {
				if p.customFields == nil {
					p.customFields = map[string]bool{}
				}
				p.customFields[name] = true
			}
			idx.pages[k] = p
			idx.seq = max(idx.seq, r.Seq)
		}
	}
	for file, into := range map[string]map[string]*term{tagsFile: idx.tags, categoriesFile: idx.cats} {
		if terms, ok := readIndex[map[string]termRecord](d, file); ok {
			for k, r := range terms {
				into[k] = &term{k, r.Name, r.Description, r.Template}
			}
		}
	}
	if data, err := os.ReadFile(filepath.Join(d.dir, settingsFile)); err == nil {
		if settings, ok := decodeSettings(data); ok {
			idx.settings = settings
		}
	}
	return idx
}

// readIndex decodes one index file; false when the file cannot be read or
// is not JSON of T's shape. Unmarshal fills what it can before a type
// error, so a partly decoded file is dropped whole.
func readIndex[T any](d *disk, name string) (T, bool) {
	var v, zero T
	data, err := os.ReadFile(filepath.Join(d.dir, name))
	if err != nil || json.Unmarshal(data, &v) != nil {
		return zero, false
	}
	return v, true
}

// seed writes every index file at once, before the server serves.
func (d *disk) seed(idx *indexes) error {
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return err
	}
	e := idx.encode()
	for _, f := range e.files(true, true) {
		if err := os.WriteFile(filepath.Join(d.dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

type indexFile struct {
	name string
	data []byte
}

// files lists the index files of the content (pages, tags, categories)
// and of the settings, as asked.
func (e encodedIndexes) files(content, settings bool) []indexFile {
	var out []indexFile
	if content {
		out = append(out, indexFile{pagesFile, e.pages}, indexFile{tagsFile, e.tags}, indexFile{categoriesFile, e.cats})
	}
	if settings {
		out = append(out, indexFile{settingsFile, e.settings})
	}
	return out
}

// save rewrites the content's index files (a page write re-indexes the
// tags and categories too, as the host does) and the settings' file, as
// asked, with what the request holds: the view it read plus its changes.
func (d *disk) save(e encodedIndexes, content, settings bool) error {
	for _, f := range e.files(content, settings) {
		if err := d.rewrite(f.name, f.data); err != nil {
			return err
		}
	}
	return nil
}

// rewrite replaces one index file the host's way: under the writers'
// lock, truncate, then write the new content in chunks, pausing before
// each. Readers take no lock.
func (d *disk) rewrite(name string, data []byte) error {
	lock := d.writing[name]
	lock.Lock()
	defer lock.Unlock()
	f, err := os.OpenFile(filepath.Join(d.dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	size := (len(data) + rewriteChunks - 1) / rewriteChunks
	for i := range rewriteChunks {
		pause(d.chunkPause)
		if i == rewriteChunks-1 && d.midRewrite != nil {
			d.midRewrite(name)
		}
		if _, err := f.Write(data[min(i*size, len(data)):min((i+1)*size, len(data))]); err != nil {
			_ = f.Close()
			return err
		}
	}
	return f.Close()
}
