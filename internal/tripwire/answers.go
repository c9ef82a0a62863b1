package tripwire

// What the tripwire learns from the run's answers: its own creates,
// deletes and renames, and every listing that can serve as a check.

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// Answered implements client.WriteGuard: it follows the run's creates and
// deletes, and takes every complete every-type listing as a check.
func (tw *Tripwire) Answered(a client.Answer) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	key, isPage := pageKey(a.URL)
	switch {
	case a.Method == http.MethodGet:
		tw.sawRead(a, key, isPage)
	case a.Method == http.MethodPost && a.URL.Path == "/api/pages":
		switch {
		case a.Status >= 200 && a.Status < 300 && createdKey(a.Body) != "":
			tw.created++
			tw.own[createdKey(a.Body)] = true
		case a.Status == 0 || a.Status >= 500 || (a.Status >= 200 && a.Status < 300):
			// No answer, a server error, or a success that names no page
			// (an error answered 200, as earlier releases did): a page may
			// or may not have been made.
			tw.unsure++
		}
	case isPage || strings.HasPrefix(a.URL.Path, "/api/files/"):
		tw.sawWrite(a, key)
	}
}

// sawWrite follows a write to one page. The caller holds tw.mu.
func (tw *Tripwire) sawWrite(a client.Answer, key string) {
	if key == "" {
		key = strings.TrimPrefix(a.URL.Path, "/api/files/")
	}
	first, _, _ := strings.Cut(key, "/")
	for _, k := range []string{key, first} {
		if tw.baseline[k] {
			tw.touched[k] = true
		}
	}
	if a.Method == http.MethodPut && a.Status == http.StatusOK && tw.own[key] {
		if to := createdKey(a.Body); to != "" && to != key {
			delete(tw.own, key) // renamed (spec 3.2)
			tw.own[to] = true
		}
	}
	if a.Method != http.MethodDelete || tw.baseline[key] {
		return
	}
	switch {
	case a.Status >= 200 && a.Status < 300:
		tw.created--
		delete(tw.own, key)
	case a.Status != http.StatusNotFound:
		// Refused, failed or unanswered: a broken server may have
		// deleted it anyway.
		tw.unsure++
	}
}

// sawRead takes what a read shows: a complete every-type listing is a
// baseline before the first write and a check after it; a page the run
// created reading 404 hints at a loss. The caller holds tw.mu.
func (tw *Tripwire) sawRead(a client.Answer, key string, isPage bool) {
	if isPage && a.Status == http.StatusNotFound && tw.baseline[key] && !tw.mayGo(key) {
		tw.suspect = true // a page listed before the run's first write reads 404
		return
	}
	data, ok := everyTypeListing(a)
	if !ok {
		return
	}
	q := a.URL.Query()
	switch {
	case q.Get("untagged") == "true":
		// A mutant may count it into meta.total: no evidence either way.
	case !wholeListing(q):
		// meta.total of every type is a check of its own (spec 4.1 rule 1).
		tw.sawTotal(a.Body)
	default:
		tw.sawListing(listedKeys(a, data))
	}
}

// everyTypeListing returns the data of a complete page listing of every
// type answered 200; ok is false for any other answer, which shows
// nothing of the whole site.
func everyTypeListing(a client.Answer) (data gjson.Result, ok bool) {
	if a.URL.Path != "/api/pages" || !a.Complete || a.Status != http.StatusOK || !everyType(a.URL.Query()) {
		return gjson.Result{}, false
	}
	data = gjson.GetBytes(a.Body, "data")
	return data, data.IsArray()
}

// wholeListing reports whether a listing's query asks for every page at
// once: only then are the listed keys all the site's.
func wholeListing(q url.Values) bool {
	page := q.Get("pageNumber")
	return q.Get("numberOfItems") == "-1" && (page == "" || page == "1")
}

// sawTotal takes a listing's meta.total as a check once there is a
// baseline to check against (and the tripwire has not tripped). The
// caller holds tw.mu.
func (tw *Tripwire) sawTotal(body []byte) {
	total, ok := totalOf(body)
	if !ok || tw.baseline == nil || tw.tripped != nil {
		return
	}
	if total < tw.expected() {
		tw.suspect = true
	} else {
		tw.checked()
	}
}

// listedKeys are the keys of the pages a whole listing shows.
func listedKeys(a client.Answer, data gjson.Result) map[string]bool {
	keys := map[string]bool{}
	if a.Streamed {
		// Read as a stream: the envelope came without its items, whose
		// keys the client kept.
		for _, k := range a.ItemKeys {
			keys[k] = true
		}
		return keys
	}
	for _, p := range data.Array() {
		keys[p.Get("key").String()] = true
	}
	return keys
}

// sawListing takes the keys of a whole listing: the baseline before the
// run's first write, a check after it. The caller holds tw.mu.
func (tw *Tripwire) sawListing(keys map[string]bool) {
	if tw.writes == 0 {
		tw.baseline = keys
		return
	}
	if tw.baseline == nil || tw.tripped != nil {
		return
	}
	// A listing that falls short is checked again, with reads of the
	// missing pages, before the next write.
	if tw.fallsShort(keys) {
		tw.suspect = true
		return
	}
	tw.checked()
}

// fallsShort reports whether a whole listing after the first write lacks
// a baseline page the run may not have removed, or shows fewer new pages
// than the run surely created. The caller holds tw.mu.
func (tw *Tripwire) fallsShort(keys map[string]bool) bool {
	for k := range tw.baseline {
		if !keys[k] && !tw.mayGo(k) {
			return true
		}
	}
	newOnes := 0
	for k := range keys {
		if !tw.baseline[k] {
			newOnes++
		}
	}
	return newOnes < tw.created-tw.unsure
}

// createdKey is the key a create's answer names: data.key (spec 4.3), or
// data itself where a release answered with the key alone (spec 9.3).
func createdKey(body []byte) string {
	if gjson.GetBytes(body, "status").String() == "1" {
		return ""
	}
	data := gjson.GetBytes(body, "data")
	if data.Type == gjson.String {
		return data.String()
	}
	return data.Get("key").String()
}

// pageKey is the page key of a /api/pages/{key} URL.
func pageKey(u *url.URL) (string, bool) {
	rest, ok := strings.CutPrefix(u.Path, "/api/pages/")
	return rest, ok && rest != ""
}
