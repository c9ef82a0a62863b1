package framework

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
	uploads  []string
	problems []string
	settings []string
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

// AddUpload records an uploaded file; the API has no way to delete uploads,
// so each one is listed in the run summary.
func (l *Ledger) AddUpload(desc string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uploads = append(l.uploads, desc)
}

// Uploads returns what was uploaded, sorted: uploads made side by side
// (prepared fixtures) are recorded in the order they were answered, which
// changes from run to run; the summary does not.
func (l *Ledger) Uploads() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(slices.Values(l.uploads))
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
	l.settings = append(l.settings, desc)
}

// Settings returns the settings notes.
func (l *Ledger) Settings() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.settings...)
}
