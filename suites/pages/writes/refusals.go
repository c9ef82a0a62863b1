package writes

// The writes the spec says are refused: a create with a type outside the
// five (4.3), and an edit and a delete of a key no page has (4.4, 4.5).
// Each is a chain of its own, so that its request is the evidence of its
// rule's spec.

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/sideeffect"
	"github.com/conformance-suite/conformance/internal/rules/single"
)

// invalidType is a page type outside the five values of section 3.
const invalidType = "conformance-invalid-type"

// invalidCreate is a create with a type outside the five: its answer and,
// when it made a page, that page's read; after a refusal, the read of the
// slug it sent (PAGE-REFUSED-WRITE-NO-EFFECT: no page may be there).
type invalidCreate struct {
	trail
	slug   string
	create *client.Exchange
	key    string // the page the create made when it was accepted
	read   *client.Exchange
}

func (s *suite) makeInvalidCreate(ctx context.Context) *invalidCreate {
	t, k := s.t, s.k
	r := &invalidCreate{slug: t.Marker("invalid-type")}
	// A past date: a server that accepts the create may give the page its
	// default type, perhaps published, and the page then sorts last in a
	// live site's lists for the moment it exists.
	r.create, r.key = t.CreatePage(ctx, map[string]any{"slug": r.slug, "type": invalidType, "date": pastDate})
	r.add(r.create)
	switch {
	case r.key != "":
		r.read = r.add(k.read(ctx, r.key))
		k.remove(ctx, r.key)
	case r.create.StatusErr() == nil && r.create.Status >= 400:
		r.read = k.readRefused(ctx, &r.trail, r.slug)
	}
	return r
}

// readRefused reads key after a refused write that should have left no
// page there (a create, a write to a key no page has), notes the read in
// tr and returns it. A page found there all the same is taken over and
// removed.
func (k kit) readRefused(ctx context.Context, tr *trail, key string) *client.Exchange {
	read := tr.add(k.read(ctx, key))
	if read.Err == nil && read.Status == http.StatusOK && read.Get("data.key").String() == key {
		k.t.AdoptKey(ctx, key)
		k.remove(ctx, key)
	}
	return read
}

// missingKey is one write to a key that carries the run marker and that no
// page has (each its own key: they go out side by side), and, after a
// refusal, the read of that key.
type missingKey struct {
	trail
	key       string
	ex, after *client.Exchange
}

func (s *suite) makeEditMissing(ctx context.Context) *missingKey {
	m := &missingKey{key: s.t.Marker("no-such-page-edit")}
	m.ex = m.add(s.k.edit(ctx, m.key, map[string]any{"description": "Conformance"}))
	s.k.remove(ctx, s.t.Adopt(ctx, m.ex)) // should the server have made a page, it is removed
	s.afterMissing(ctx, m)
	s.missing = m
	return m
}

func (s *suite) makeDeleteMissing(ctx context.Context) *missingKey {
	m := &missingKey{key: s.t.Marker("no-such-page-delete")}
	m.ex = m.add(s.t.Write(ctx, http.MethodDelete, pagelist.PagePath(m.key), nil))
	s.afterMissing(ctx, m)
	return m
}

// afterMissing reads m's key after a refusal of its write.
func (s *suite) afterMissing(ctx context.Context, m *missingKey) {
	if m.ex.StatusErr() == nil && sideeffect.Refused(m.ex.Status) {
		m.after = s.k.readRefused(ctx, &m.trail, m.key)
	}
}

func (s *suite) judgeCreateInvalidType(_ SpecContext, r *invalidCreate) {
	ex := r.create
	if r.key != "" {
		// Accepted: the spec does not list which values a create
		// validates, so a server may ignore or replace the value; it may
		// not store it (a page's type is one of five, 2.1).
		expectValidType(ex, "the create response to a create with type "+invalidType, true)
		got := expectRead(r.read, "its type")
		expectValidType(got, "the page created with type "+invalidType, false)
		s.t.Observe("PAGE-CREATE-INVALID-TYPE: a create with type %q was accepted (HTTP %d) and the page's type is %s",
			invalidType, ex.Status, got.Get("data.type").Raw)
		return
	}
	Expect(ex).To(match.BeHandlerError(http.StatusBadRequest), "a create with type %q", invalidType)
}

func judgeMissing404(_ SpecContext, m *missingKey) {
	Expect(m.ex).To(match.HaveHTTPStatus(http.StatusNotFound))
	Expect(m.ex).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
}
