// Package marker names what a conformance run creates on a target, so that
// it can be found again: the run ID, the run marker every created key
// starts with, and the listing that shows every page. It pulls in no test
// framework, so `conformance cleanup` stays a plain HTTP client.
package marker

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Prefix starts the slug of everything a run creates; `conformance cleanup`
// removes pages whose key starts with it, and only those.
const Prefix = "conformance-"

// NewRunID returns a short, sortable, unique run ID such as
// "20261121t2350-3fa9c1".
func NewRunID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return strings.ToLower(now.UTC().Format("20060102t1504")) + "-" + hex.EncodeToString(b)
}

// Of returns the slug of something run runID creates:
// "conformance-<run-id>-<name>".
func Of(runID, name string) string { return Prefix + runID + "-" + name }

// pattern matches a key segment made by Of. It ignores case: a server may
// keep the case of a title it derives a slug from.
var pattern = regexp.MustCompile(`(?i)^` + Prefix + `\d{8}t\d{4}-[0-9a-f]{6}-`)

// IsRunMarked reports whether a page key was made by a conformance run: its
// first segment starts with a run marker (runs only create children under
// parents they made). Keys people choose, even ones starting with
// "conformance-", do not match, and neither does a marked child under a
// person's page: deleting "parent/child" deletes the parent on some
// servers (the previous release does).
func IsRunMarked(key string) bool {
	return pattern.MatchString(firstSegment(key))
}

// HasRunMarker reports whether key's first segment carries the marker of
// run runID (ignoring case).
func HasRunMarker(key, runID string) bool {
	return strings.HasPrefix(strings.ToLower(firstSegment(key)), strings.ToLower(Of(runID, "")))
}

func firstSegment(key string) string { return strings.Split(key, "/")[0] }

// AllPagesQuery is the query of GET /api/pages that lists every page at
// once: all five type filters on, no page size limit (spec 4.1).
func AllPagesQuery() url.Values {
	return url.Values{"published": {"true"}, "static": {"true"}, "sticky": {"true"}, "draft": {"true"},
		"scheduled": {"true"}, "numberOfItems": {"-1"}}
}
