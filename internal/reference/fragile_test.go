package reference

// The file mode (Options.StorageDir) is as fragile as the host's storage:
// requests side by side lose data, one after another lose nothing. The
// overlaps are made on purpose, past any client, with plain HTTP and the
// test hooks that hold a request at a chosen point.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fileServer is a reference server in the file mode, served over HTTP.
type fileServer struct {
	*Server
	url, dir string
}

// newFileServer serves a server in the file mode with the given work time
// and chunk pause; setup, when not nil, runs before it serves (to set the
// test hooks).
func newFileServer(t *testing.T, work, chunkPause time.Duration, setup func(s *Server), mutants ...Mutant) fileServer {
	t.Helper()
	dir := t.TempDir()
	s, err := New(Options{Token: testToken, AuthToken: testAuth, StorageDir: dir, StorageWorkTime: work,
		StorageChunkPause: chunkPause, Mutants: mutants, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(s)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return fileServer{s, ts.URL, dir}
}

// testClient gives up on a request that a storage safer than the host's
// would hold for ever (one request at a time, while a test hook holds
// another).
var testClient = &http.Client{Timeout: 5 * time.Second}

// await waits for ch to close, or fails the test.
func await(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s never happened", what)
	}
}

// holdHeader names a request that a test hook holds.
const holdHeader = "X-Test-Hold"

// create sends POST /api/pages with the title; hold names it for the
// hooks. It returns the status.
func (f fileServer) create(t *testing.T, title, hold string) int {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"token": testToken, "authentication": testAuth, "title": title})
	r, err := http.NewRequest(http.MethodPost, f.url+"/api/pages", strings.NewReader(string(body)))
	if err != nil {
		t.Error(err)
		return 0
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(holdHeader, hold)
	resp, err := testClient.Do(r)
	if err != nil {
		t.Error(err)
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// listed returns the keys of every page the site lists (all types).
func (f fileServer) listed(t *testing.T) []string {
	t.Helper()
	q := url.Values{"token": {testToken}, "numberOfItems": {"-1"}}
	for _, typ := range []string{"published", "static", "sticky", "draft", "scheduled"} {
		q.Set(typ, "true")
	}
	resp, err := testClient.Get(f.url + "/api/pages?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Data []struct{ Key string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("list: HTTP %d, %v", resp.StatusCode, err)
	}
	keys := []string{}
	for _, p := range body.Data {
		keys = append(keys, p.Key)
	}
	slices.Sort(keys)
	return keys
}

// seededKeys are the keys of the seeded pages.
func seededKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	for _, p := range newServer(t).Storage().Pages {
		keys = append(keys, p.Key)
	}
	return keys
}

// A write that read the pages before another write saved them saves its
// stale view: the other write's page is lost. One after another, both
// stay.
func TestOverlappingWritesLoseData(t *testing.T) {
	seeded := seededKeys(t)
	release := make(chan struct{})
	reached := make(chan struct{})
	f := newFileServer(t, -1, -1, func(s *Server) {
		s.afterRead = func(r *http.Request) {
			if r.Header.Get(holdHeader) == "first" {
				close(reached)
				<-release
			}
		}
	})
	// Released at the latest when the test ends, before the server
	// closes (it waits for the held request).
	releaseHeld := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseHeld)
	done := make(chan int, 1)
	go func() { done <- f.create(t, "First", "first") }() // reads, then is held
	await(t, reached, "the first create's read")
	if code := f.create(t, "Second", ""); code != http.StatusCreated {
		t.Fatalf("second create: %d", code)
	}
	if got := f.listed(t); !slices.Contains(got, "second") {
		t.Fatalf("the second page is not listed after its create: %v", got)
	}
	releaseHeld() // the first write saves what it read, plus its page
	if code := <-done; code != http.StatusCreated {
		t.Fatalf("first create: %d", code)
	}
	got := f.listed(t)
	if want := sortedWith(seeded, "first"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the overlap the site lists %v, want the seeded pages and first only (second lost)", got)
	}

	// The same two writes one after another: nothing lost.
	g := newFileServer(t, -1, -1, nil)
	g.create(t, "First", "")
	g.create(t, "Second", "")
	if got, want := g.listed(t), sortedWith(seeded, "first", "second"); !reflect.DeepEqual(got, want) {
		t.Errorf("one after another the site lists %v, want %v", got, want)
	}
}

// tornSequence: a create ("Writer") is held in the middle of the rewrite
// of file (truncated, partly written); during runs then, and another create
// ("Reader Writer") reads the cut file; the Writer then finishes, and only
// then does the Reader Writer go on to write what it read. (The writers'
// lock is per file: were the two let go together, which of them rewrote
// the other index files last would be up to the scheduler.)
func tornSequence(t *testing.T, file string, during func(f fileServer)) fileServer {
	t.Helper()
	tearing, release := make(chan struct{}), make(chan struct{})
	readTorn, writerDone := make(chan struct{}), make(chan struct{})
	var tear sync.Once
	f := newFileServer(t, -1, -1, func(s *Server) {
		s.disk.midRewrite = func(name string) {
			if name == file {
				tear.Do(func() { close(tearing); <-release }) // the first rewrite only
			}
		}
		s.afterRead = func(r *http.Request) {
			if r.Header.Get(holdHeader) == "torn" {
				close(readTorn)
				<-writerDone
			}
		}
	})
	releaseHeld := sync.OnceFunc(func() { close(release) })
	letReaderWrite := sync.OnceFunc(func() { close(writerDone) })
	t.Cleanup(releaseHeld) // before the server closes: it waits for the held requests
	t.Cleanup(letReaderWrite)
	done := make(chan int, 1)
	read := make(chan int, 1)
	go func() { done <- f.create(t, "Writer", "") }()
	await(t, tearing, "the rewrite of "+file)
	during(f)
	go func() { read <- f.create(t, "Reader Writer", "torn") }()
	await(t, readTorn, "the second create's read")
	releaseHeld()
	if code := <-done; code != http.StatusCreated {
		t.Fatalf("create of Writer: %d", code)
	}
	letReaderWrite()
	if code := <-read; code != http.StatusCreated {
		t.Fatalf("create of Reader Writer: %d", code)
	}
	return f
}

// A request that reads while a write rewrites the pages' index sees it
// empty or cut: a read lists no page at all, and a write saves that empty
// view plus its own page, so the site loses every other page and every
// tag. One after another, nothing is lost.
func TestTornReadEmptiesTheSite(t *testing.T) {
	seeded := seededKeys(t)
	f := tornSequence(t, pagesFile, func(f fileServer) {
		if got := f.listed(t); len(got) != 0 {
			t.Errorf("a read during the rewrite lists %d pages, want none (a torn read)", len(got))
		}
	})
	if got := f.listed(t); !reflect.DeepEqual(got, []string{"reader-writer"}) {
		t.Errorf("after the torn read the site lists %v, want only the page of the write that read it", got)
	}
	if after := f.Storage(); len(after.Pages) != 1 || len(after.Tags) != 0 {
		t.Errorf("stored: %d pages and %d tags after the torn read, want 1 page and no tag", len(after.Pages), len(after.Tags))
	}

	// One after another: every page stays.
	g := newFileServer(t, -1, -1, nil)
	g.create(t, "Writer", "")
	if got := g.listed(t); len(got) != len(seeded)+1 {
		t.Errorf("a read after the write lists %d pages, want %d", len(got), len(seeded)+1)
	}
	g.create(t, "Reader Writer", "")
	if got, want := g.listed(t), sortedWith(seeded, "reader-writer", "writer"); !reflect.DeepEqual(got, want) {
		t.Errorf("one after another the site lists %v, want %v", got, want)
	}
	if st := g.Storage(); len(st.Tags) == 0 || len(st.Categories) == 0 {
		t.Errorf("one after another: %d tags, %d categories stored", len(st.Tags), len(st.Categories))
	}
}

// The same with the categories' index, rewritten by every page write: a
// page write that read it cut saves no category.
func TestTornReadLosesTheCategories(t *testing.T) {
	seeded := seededKeys(t)
	f := tornSequence(t, categoriesFile, func(f fileServer) {
		resp, err := testClient.Get(f.url + "/api/categories?token=" + testToken)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct{ Data []any }
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || len(body.Data) != 0 {
			t.Errorf("a read during the rewrite lists %d categories (%v), want none (a torn read)", len(body.Data), err)
		}
	})
	if got, want := f.listed(t), sortedWith(seeded, "reader-writer", "writer"); !reflect.DeepEqual(got, want) {
		t.Errorf("the site lists %v, want %v", got, want)
	}
	if n := len(f.Storage().Categories); n != 0 {
		t.Errorf("%d categories stored after the torn read, want none", n)
	}
}

// The default windows are wide enough to lose data on loopback without
// any hook: writes sent side by side lose pages.
func TestDefaultWindowsLoseData(t *testing.T) {
	f := newFileServer(t, 0, 0, nil)
	seeded := len(seededKeys(t))
	const writers, each = 6, 3
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				f.create(t, fmt.Sprintf("Side %d %d", w, i), "")
			}
		}()
	}
	wg.Wait()
	got := len(f.listed(t))
	if got >= seeded+writers*each {
		t.Errorf("%d writes side by side lost nothing (%d pages listed)", writers*each, got)
	}
	t.Logf("%d creates side by side: %d pages listed, want %d: %d lost", writers*each, got, seeded+writers*each,
		seeded+writers*each-got)
}

// An index file that is empty, cut or not the JSON the server writes reads
// as an empty index, for requests and for Storage alike.
func TestUnreadableIndexReadsEmpty(t *testing.T) {
	for _, c := range []struct{ name, content string }{
		{"empty", ""}, {"cut", `{"alpha-post":{"uuid":"d8e2`}, {"an array", "[]"}, {"not JSON", "<?php exit; ?>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFileServer(t, -1, -1, nil)
			for _, name := range []string{pagesFile, tagsFile, categoriesFile, settingsFile} {
				if err := os.WriteFile(filepath.Join(f.dir, name), []byte(c.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := f.listed(t); len(got) != 0 {
				t.Errorf("lists %v", got)
			}
			st := f.Storage()
			if len(st.Pages)+len(st.Tags)+len(st.Categories)+len(st.Settings) != 0 {
				t.Errorf("Storage holds %d pages, %d tags, %d categories, %d settings; want none",
					len(st.Pages), len(st.Tags), len(st.Categories), len(st.Settings))
			}
		})
	}
}

// Everything the server stores survives in the files: a server's Storage
// after a few writes is the same in files and in memory, and the files
// hold it (not the process: a fresh read of the directory shows it).
func TestFilesHoldTheState(t *testing.T) {
	writes := []req{
		js("POST", "/api/pages", map[string]any{"title": "New & <b>", "tags": "x, y", "category": "music", "noindex": true}),
		js("PUT", "/api/pages/beta-post", map[string]any{"title": "Beta Renamed", "position": "7"}),
		js("DELETE", "/api/pages/gamma-post", nil),
		js("PUT", "/api/settings", map[string]any{"slogan": "A & B", "itemsPerPage": "9", "markdownParser": "false"}),
		fileUp("alpha-post", "more.txt"),
	}
	mem := newServer(t)
	f := newFileServer(t, -1, -1, nil)
	for _, q := range writes {
		a, b := call(t, mem, q), call(t, f.Server, q)
		if fingerprint(a) != fingerprint(b) {
			t.Errorf("%s %s: memory and files answer differently:\n%s\n%s", q.method, q.path, a.body, b.body)
		}
	}
	want := blankUUIDs(strings.Join(mem.Storage().Lines(), "\n"))
	if got := blankUUIDs(strings.Join(f.Storage().Lines(), "\n")); got != want {
		t.Errorf("stored in files:\n%s\nin memory:\n%s", got, want)
	}
	// A second server reading the same directory sees the same indexes.
	other := &Server{disk: newDisk(f.dir, 0), up: &uploads{}}
	if got, want := other.Storage().Pages, f.Storage().Pages; !reflect.DeepEqual(got, want) {
		t.Error("the pages read from the directory differ from the server's")
	}
}

// Every switch (mutant, benign variant, hazard, profile) answers its probe
// the same in files as in memory, and stores the same.
func TestFileModeAnswersTheSame(t *testing.T) {
	inFilesToo := func(t *testing.T, opts Options) (*Server, *Server) {
		opts.Token, opts.AuthToken, opts.Now = testToken, testAuth, func() time.Time { return fixedNow }
		mem, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.StorageDir, opts.StorageWorkTime, opts.StorageChunkPause = t.TempDir(), -1, -1
		files, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		return mem, files
	}
	for _, m := range Mutants() {
		t.Run(string(m.Name), func(t *testing.T) {
			t.Parallel()
			mem, files := inFilesToo(t, Options{Mutants: []Mutant{m.Name}})
			probe := mutantProbes[m.Name].probe
			if got, want := probePrints(t, files, probe), probePrints(t, mem, probe); !reflect.DeepEqual(got, want) {
				t.Errorf("in files:\n%s\nin memory:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	for _, p := range Profiles() {
		t.Run(string(p.Name), func(t *testing.T) {
			mem, files := inFilesToo(t, Options{Profile: p.Name})
			var probe []req
			for _, v := range p.Variants {
				probe = append(probe, mutantProbes[v].probe...)
			}
			if got, want := probePrints(t, files, probe), probePrints(t, mem, probe); !reflect.DeepEqual(got, want) {
				t.Errorf("in files:\n%s\nin memory:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func sortedWith(keys []string, more ...string) []string {
	out := slices.Concat(keys, more)
	slices.Sort(out)
	return out
}
