// Package ledger remembers what a run created on the target and what it
// changed, so that cleanup can undo it and the summary can say what stayed.
package ledger

import (
	"maps"
	"slices"
	"sync"
)

// Ledger remembers what the run created on the target, so that cleanup can
// remove it even when specs fail, time out or the run is interrupted, and so
// that the summary can say exactly what could not be removed.
type Ledger struct {
	mu       sync.Mutex
	pages    map[string]bool
	moved    map[string]string // old key -> new key, for cleanups registered before a rename
	uploads  []upload
	problems []string
	settings []settingsNote
}

// settingsNote is what the run did to the settings, and the outcome.
// verified: the outcome says every field was restored and verified, which
// a later check that finds them changed again takes back.
type settingsNote struct {
	what, outcome string
	verified      bool
}

// AddPage records a page the run created.
func (l *Ledger) AddPage(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pages == nil {
		l.pages = map[string]bool{}
	}
	l.pages[key] = true
	delete(l.moved, key) // a new page at a key that an earlier one left
}

// RenamePage follows a page whose key changed on edit.
func (l *Ledger) RenamePage(from, to string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pages[from] && from != to {
		delete(l.pages, from)
		l.pages[to] = true
		if l.moved == nil {
			l.moved = map[string]string{}
		}
		delete(l.moved, to) // the page lives at to now, even if it once left it
		l.moved[from] = to
	}
}

// CurrentKey returns the key the page created at key has now, following
// the renames recorded since (key itself when there were none): a cleanup
// registered at create time deletes the page where it is when it runs.
func (l *Ledger) CurrentKey(key string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for seen := 0; seen <= len(l.moved); seen++ { // bounded: renames cannot loop forever
		to, ok := l.moved[key]
		if !ok {
			break
		}
		key = to
	}
	return key
}

// RemovePage records that a page is gone.
func (l *Ledger) RemovePage(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.pages, key)
}

// Pages returns the keys of created pages not yet removed, sorted.
func (l *Ledger) Pages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(maps.Keys(l.pages))
}

// upload is a file the run uploaded (or a probe upload a server accepted),
// the page it went to ("" when none or not known), and, once the page was
// deleted and its file list read again, what that list showed.
type upload struct {
	page, desc string
	// unlisted: the page's file list named no file once the page was
	// deleted; seen is what the list showed then ("" while not read).
	unlisted bool
	seen     string
}

// AddUpload records an uploaded file; the API has no way to delete uploads,
// so each one is listed in the run summary.
func (l *Ledger) AddUpload(desc string) { l.AddUploadOn("", desc) }

// AddUploadOn records a file uploaded to page (see AddUpload): once the
// page is deleted, its file list is read again (DeletePage), and the
// summary says what that showed.
func (l *Ledger) AddUploadOn(page, desc string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uploads = append(l.uploads, upload{page: page, desc: desc})
}

// HasUploadsOn reports whether files the run uploaded went to page.
func (l *Ledger) HasUploadsOn(page string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.uploads, func(u upload) bool { return u.page == page })
}

// UploadsSeen records what page's file list showed once the page was
// deleted: no file (unlisted), or what seen says.
func (l *Ledger) UploadsSeen(page string, unlisted bool, seen string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.uploads {
		if l.uploads[i].page == page {
			l.uploads[i].unlisted, l.uploads[i].seen = unlisted, seen
		}
	}
}

// Uploads returns the uploads that may still be on the target, each with
// what the run saw of it after its page was deleted, sorted: uploads made
// side by side (prepared fixtures) are recorded in the order they were
// answered, which changes from run to run; the summary does not.
func (l *Ledger) Uploads() []string {
	return l.uploadLines(false)
}

// UploadsUnlisted returns the uploads whose page's file list named no file
// once the page was deleted, with what was read, sorted.
func (l *Ledger) UploadsUnlisted() []string {
	return l.uploadLines(true)
}

func (l *Ledger) uploadLines(unlisted bool) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, u := range l.uploads {
		if u.unlisted != unlisted {
			continue
		}
		line := u.desc
		if u.seen != "" {
			line += "; " + u.seen
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

// AddProblem records a teardown failure (reported apart from rule failures).
func (l *Ledger) AddProblem(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, q := range l.problems {
		if q == p {
			return // the same failure seen by a spec's cleanup and the sweep
		}
	}
	l.problems = append(l.problems, p)
}

// Problems returns the teardown failures.
func (l *Ledger) Problems() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.problems...)
}

// SettingsChanged records that a setting was changed and restored (or not).
func (l *Ledger) SettingsChanged(desc string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.settings = append(l.settings, settingsNote{what: desc})
}

// SettingsVerified records settings changed by what, every field of which
// the last check read as before: outcome says how it was verified.
func (l *Ledger) SettingsVerified(what, outcome string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.settings = append(l.settings, settingsNote{what: what, outcome: outcome, verified: true})
}

// SettingsChangedAgain takes back every note that said the settings were
// restored and verified: a later check read them changed again (a write
// without an answer landed late), and only the last check counts. outcome
// replaces what those notes said.
func (l *Ledger) SettingsChangedAgain(outcome string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.settings {
		if l.settings[i].verified {
			l.settings[i].outcome, l.settings[i].verified = outcome, false
		}
	}
}

// Settings returns the settings notes.
func (l *Ledger) Settings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, 0, len(l.settings))
	for _, n := range l.settings {
		if n.outcome == "" {
			out = append(out, n.what)
		} else {
			out = append(out, n.what+"; "+n.outcome)
		}
	}
	return out
}
