package explore

import (
	"context"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/rules/readback"
	"github.com/conformance-suite/conformance/internal/rules/sideeffect"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
)

// This file sends the cases that write pages: creates, edits and writes
// without a valid authentication token. Every page a case makes carries
// the run marker, is recorded in the ledger as soon as an answer names it,
// and is deleted before the case ends, whatever happened.

// jsonText is v as the client would send it (client.JSONText); the
// generated values always encode.
func jsonText(v any) []byte {
	b, _ := client.JSONText(v)
	return b
}

// removeIfThere deletes the page at slug if the site has one: a write the
// server refused, or whose answer named no key, may have made it anyway.
// Only a page that is the run's is deleted (as framework.GuardCreate
// does): the answer names it by slug, or by a run-marked key. Anything
// else (a page a lenient lookup answered for the slug) is left alone;
// the final sweep finds a run-marked page it missed.
func (s *session) removeIfThere(ctx context.Context, slug string) {
	ex := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", slug), Fresh: true})
	if ex.Status != http.StatusOK {
		return
	}
	if key := ex.Get("data.key").String(); key == slug || marker.HasRunMarker(key, s.fx.RunID) {
		s.adopt(key)
		s.remove(ctx, key)
	}
}

// removeCreated removes what the create answered by ex made: the page of
// the key it answers, or, without one, whatever stands at the slug sent
// (the caller defers it, so it runs after the case's own reads). It
// returns the key answered ("" when none).
func (s *session) removeCreated(ctx context.Context, ex *client.Exchange, slug string) (string, func()) {
	key := ex.Get("data.key").String()
	if ex.Status/100 == 2 && key != "" {
		s.adopt(key)
		return key, func() { s.remove(ctx, key) }
	}
	return key, func() { s.removeIfThere(ctx, slug) }
}

// write sends a create or edit of fields with both tokens.
func (s *session) write(ctx context.Context, j *oracle.Judge, method, path string, fs []gen.Field, form bool) *client.Exchange {
	r := client.Request{Method: method, Path: path, Credentials: client.BothTokens}
	body(&r, fs, form)
	return s.do(ctx, j, r, "")
}

// readPage reads a page back (judged as every answer is).
func (s *session) readPage(ctx context.Context, j *oracle.Judge, key string) *client.Exchange {
	return s.do(ctx, j, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", key), Fresh: true}, "")
}

// create sends a generated create, reads the page back and deletes it. A
// create the server refused is read back (refusedCreate).
func (s *session) create(ctx context.Context, c gen.Case, j *oracle.Judge) {
	slug := s.newSlug()
	fs := s.fields(c.Fields, slug)
	var total *client.Exchange
	if s.countFirst(c) {
		total = s.pageTotal(ctx, j)
	}
	ex := s.write(ctx, j, http.MethodPost, "/api/pages", fs, c.Form)
	key, remove := s.removeCreated(ctx, ex, slug)
	defer remove()
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		return
	}
	if sideeffect.Refused(ex.Status) {
		s.refusedCreate(ctx, j, ruleRefused, fs, slug, total)
	}
	typ, _ := c.Field("type")
	switch {
	case c.Valid():
		if !j.Status("PAGE-CREATE-201", ex, http.StatusCreated) {
			return
		}
	case typ.Invalid:
		if !j.Status("PAGE-CREATE-INVALID-TYPE", ex, http.StatusCreated, http.StatusBadRequest) {
			return
		}
		if ex.Status == http.StatusBadRequest {
			j.HandlerError("PAGE-CREATE-INVALID-TYPE", ex)
			return
		}
	default:
		j.Observe("a create with a value the spec does not promise to take was answered %d", ex.Status)
		if ex.Status == http.StatusBadRequest {
			j.HandlerError("ENV-HANDLER-ERROR-SHAPE", ex)
		}
		if ex.Status/100 != 2 {
			return
		}
	}
	if !j.PageObject(ex, ex.Get("data")) || key == "" {
		return
	}
	w := oracle.Written{Form: c.Form, Fields: fs}
	j.Readback(w, ex, ex.Get("data"))
	back := s.readPage(ctx, j, key)
	if j.Status("PAGE-GET-OK", back, http.StatusOK) && j.PageObject(back, back.Get("data")) {
		j.Readback(w, back, back.Get("data"))
	}
}

// basePage creates the draft an edit or a refused write works on, and
// returns its key and the page as read back ("" when it could not be
// made: the case then checks nothing).
func (s *session) basePage(ctx context.Context, j *oracle.Judge) (string, gjson.Result) {
	slug := s.newSlug()
	fs := []gen.Field{{Name: "slug", Value: slug}, {Name: "title", Value: s.marker() + " base"}, {Name: "content", Value: "base"},
		{Name: "description", Value: "base"}, {Name: "type", Value: "draft"}, {Name: "date", Value: "2001-02-03 04:05:06"}}
	ex := s.write(ctx, j, http.MethodPost, "/api/pages", fs, false)
	key := ex.Get("data.key").String()
	if ex.Status/100 != 2 || key == "" {
		s.removeIfThere(ctx, slug)
		return "", gjson.Result{}
	}
	s.adopt(key)
	back := s.readPage(ctx, j, key)
	if back.Status != http.StatusOK || !back.Get("data").IsObject() {
		s.remove(ctx, key)
		return "", gjson.Result{}
	}
	return key, back.Get("data")
}

// edit creates a draft, sends the generated edit, reads the page back
// and deletes it.
func (s *session) edit(ctx context.Context, c gen.Case, j *oracle.Judge) {
	key, before := s.basePage(ctx, j)
	if key == "" {
		return
	}
	current := key
	defer func() { s.remove(ctx, current) }()
	fs := s.fields(c.Fields, "")
	ex := s.write(ctx, j, http.MethodPut, client.KeyPath("pages", key), fs, c.Form)
	if nk := ex.Get("data.key").String(); ex.Status/100 == 2 && nk != "" && nk != key {
		s.fx.Ledger.RenamePage(key, nk)
		current = nk
	}
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		s.findRenamed(ctx, key)
		return
	}
	if sideeffect.Refused(ex.Status) {
		s.refusedEdit(ctx, j, key, fs, before)
	}
	typ, _ := c.Field("type")
	switch {
	case c.Valid():
		if !j.Status("PAGE-EDIT-OK", ex, http.StatusOK) {
			return
		}
	case typ.Invalid:
		if !j.Status("PAGE-EDIT-INVALID-400", ex, http.StatusOK, http.StatusBadRequest) {
			return
		}
		if ex.Status == http.StatusBadRequest {
			j.HandlerError("PAGE-EDIT-INVALID-400", ex)
			return
		}
	default:
		j.Observe("an edit with a value the spec does not promise to take was answered %d", ex.Status)
		if ex.Status/100 != 2 {
			return
		}
	}
	if !j.PageObject(ex, ex.Get("data")) {
		return
	}
	back := s.readPage(ctx, j, current)
	readRule := "PAGE-EDIT-OK"
	if current != key {
		readRule = "PAGE-EDIT-KEY-CHANGE"
	}
	if !j.Status(readRule, back, http.StatusOK) || !j.PageObject(back, back.Get("data")) {
		return
	}
	w := oracle.Written{Edit: true, Form: c.Form, Fields: fs}
	j.Readback(w, back, back.Get("data"))
	j.Unchanged("PAGE-EDIT-PARTIAL", fs, back, before, back.Get("data"))
}

// refusedEdit reads back the page at key after an edit of fs was refused
// (a 4xx): it is as before showed it, in every field of 2.1 the edit sent
// (PAGE-REFUSED-WRITE-NO-EFFECT).
func (s *session) refusedEdit(ctx context.Context, j *oracle.Judge, key string, fs []gen.Field, before gjson.Result) {
	sent := map[string]bool{}
	for _, f := range fs {
		sent[f.Name] = true
	}
	fields := readback.Sent(func(b string) bool { return sent[b] })
	after := s.readPage(ctx, j, key)
	j.Judged(ruleRefused, after, "refused edit",
		"page "+key+" as before the 400: key, "+strings.Join(fields, ", ")+" as before",
		sideeffect.Kept(before, after.Status, after.Get("data"), key, fields))
	if after.Status == http.StatusNotFound {
		s.findRenamed(ctx, key)
	}
}

// findRenamed follows a page whose edit got no usable answer: if it no
// longer reads at its key, the sweep's listing of run-marked pages finds
// it (its new title carries the marker) and deletes it.
func (s *session) findRenamed(ctx context.Context, key string) {
	if ex := s.c.Do(ctx, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", key), Fresh: true}); ex.Status == http.StatusNotFound {
		s.sweep(ctx)
	}
}

// refused sends a write without a valid authentication token and checks
// that it was refused with 401 and changed nothing (5.5).
func (s *session) refused(ctx context.Context, c gen.Case, j *oracle.Judge) {
	sent := tokens.Missing
	r := client.Request{Credentials: client.APIToken}
	if c.AuthToken == gen.TokenWrong {
		sent = tokens.Wrong
		r.Credentials, r.AuthValue = client.BothTokens, probe.WrongToken(s.c.AuthToken())
	}
	// The rule and codes of a write without a valid authentication token
	// (rules/tokens): 401, and 404 first for a key no page has.
	want := func(missingPage bool) tokens.Answer {
		return tokens.Expect(tokens.Request{API: tokens.Valid, Auth: sent, NeedsAuth: true, MissingPage: missingPage})
	}
	rule := want(false).Rule
	r.Probe = true
	if c.Target == "settings" {
		s.refusedSettings(ctx, c, j, r, want(false))
		return
	}
	if !s.fx.CanWrite() {
		// A probe that cannot change a site: a key no page has.
		r.Method, r.Path = http.MethodDelete, s.keyPath("pages", gen.Marker+"missing", "missing")
		if c.Target == "edit" {
			r.Method = http.MethodPut
			body(&r, s.fields(c.Fields, ""), c.Form)
		}
		if ex := s.do(ctx, j, r, ""); oracle.Judgeable(ex) && ex.Status < 500 {
			j.Status(rule, ex, want(true).Codes...)
			if sideeffect.Refused(ex.Status) {
				s.refusedMissing(ctx, j, ruleAuthRefused, gen.Fill(gen.Marker+"missing", "", s.marker()))
			}
		}
		return
	}
	if c.Target == "create" {
		slug := s.newSlug()
		fs := s.fields(c.Fields, slug)
		r.Method, r.Path = http.MethodPost, "/api/pages"
		body(&r, fs, c.Form)
		total := s.pageTotal(ctx, j)
		ex := s.do(ctx, j, r, "")
		// A server that took it anyway may have put the page under a
		// parent the body named: the key it answered says where.
		key, remove := s.removeCreated(ctx, ex, slug)
		defer remove()
		if oracle.Judgeable(ex) && ex.Status < 500 {
			j.Status(rule, ex, want(false).Codes...)
		}
		if key != "" && key != slug {
			// Taken, and put where the answer says: read there.
			after := s.readPage(ctx, j, key)
			j.Judged(ruleAuthRefused, after, "page created", "no page at "+key+" after the refused create",
				sideeffect.NoPage(after.Status, after.Get("data"), key))
			return
		}
		s.refusedCreate(ctx, j, ruleAuthRefused, fs, slug, total)
		return
	}
	key, before := s.basePage(ctx, j)
	if key == "" {
		return
	}
	defer s.remove(ctx, key)
	r.Method, r.Path = http.MethodDelete, client.KeyPath("pages", key)
	if c.Target == "edit" {
		r.Method = http.MethodPut
		body(&r, s.fields(c.Fields, ""), c.Form)
	}
	ex := s.do(ctx, j, r, "")
	if oracle.Judgeable(ex) && ex.Status < 500 {
		j.Status(rule, ex, want(false).Codes...)
	}
	after := s.readPage(ctx, j, key)
	if !j.Check("AUTH-REFUSED-WRITE-NO-EFFECT", after.Status == http.StatusOK, after, "page gone", "the page still reads after the refused "+c.Target, "GET answered "+http.StatusText(after.Status)) {
		s.findRenamed(ctx, key)
		return
	}
	j.Unchanged("AUTH-REFUSED-WRITE-NO-EFFECT", nil, after, before, after.Get("data"))
}
