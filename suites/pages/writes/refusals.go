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
	"github.com/conformance-suite/conformance/internal/rules/single"
)

// invalidType is a page type outside the five values of section 3.
const invalidType = "conformance-invalid-type"

// invalidCreate is a create with a type outside the five: its answer and,
// when it made a page, that page's read; after a refusal, the read of the
// slug it sent, and whether a page is there all the same.
type invalidCreate struct {
	trail
	slug       string
	create     *client.Exchange
	key        string // the page the create made when it was accepted
	read       *client.Exchange
	leftBehind bool
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
	case r.create.Err == nil && r.create.Status >= 400:
		// A refused create must leave nothing behind; if the page exists
		// anyway, take it over so that it is removed.
		r.read = r.add(k.read(ctx, r.slug))
		if ex := r.read; ex.Err == nil && ex.Status == http.StatusOK && ex.Get("data.key").String() == r.slug {
			t.AdoptKey(ctx, r.slug)
			r.leftBehind = true
			k.remove(ctx, r.slug)
		}
	}
	return r
}

// missingKey is one write to a key that carries the run marker and that no
// page has (each its own key: they go out side by side).
type missingKey struct {
	trail
	ex *client.Exchange
}

func (s *suite) makeEditMissing(ctx context.Context) *missingKey {
	ex := s.k.edit(ctx, s.t.Marker("no-such-page-edit"), map[string]any{"description": "Conformance"})
	s.k.remove(ctx, s.t.Adopt(ctx, ex)) // should the server have made a page, it is removed
	m := &missingKey{ex: ex}
	m.add(ex)
	return m
}

func (s *suite) makeDeleteMissing(ctx context.Context) *missingKey {
	m := &missingKey{ex: s.t.Write(ctx, http.MethodDelete, pagelist.PagePath(s.t.Marker("no-such-page-delete")), nil)}
	m.add(m.ex)
	return m
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
	if r.leftBehind {
		s.t.Observe("PAGE-CREATE-INVALID-TYPE: the create was refused with HTTP %d but page %s exists afterwards",
			ex.Status, r.slug)
	}
	Expect(ex).To(match.BeHandlerError(http.StatusBadRequest), "a create with type %q", invalidType)
}

func judgeMissing404(_ SpecContext, m *missingKey) {
	Expect(m.ex).To(match.HaveHTTPStatus(http.StatusNotFound))
	Expect(m.ex).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
}
