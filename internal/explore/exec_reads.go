package explore

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/rules/sideeffect"
)

// This file sends the cases that change nothing: page lists, single
// reads, token probes and bodies no server can take as a write.

// do sends r and judges what every answer must keep (oracle.Every).
func (s *session) do(ctx context.Context, j *oracle.Judge, r client.Request, crashRule string) *client.Exchange {
	ex := s.c.Do(ctx, r)
	j.Every(ex, crashRule, s.tokens()...)
	return ex
}

// list sends a page list request, and the same without untagged when it
// had untagged=true, and judges the answer.
func (s *session) list(ctx context.Context, c gen.Case, j *oracle.Judge) {
	q := url.Values{}
	for _, p := range c.Query {
		q.Add(p.Name, p.Value)
	}
	ex := s.do(ctx, j, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: q}, oracle.CrashRule(c))
	if !oracle.Judgeable(ex) {
		return
	}
	var paired *client.Exchange
	if q.Get("untagged") == "true" && ex.Status == http.StatusOK {
		without := url.Values{}
		for k, v := range q {
			if k != "untagged" {
				without[k] = v
			}
		}
		paired = s.do(ctx, j, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: without}, "")
	}
	j.List(c, ex, paired, s.model)
}

// read sends a single read by key and judges it by what the key names.
func (s *session) read(ctx context.Context, c gen.Case, j *oracle.Judge) {
	path := s.keyPath(c.Endpoint, c.Key, c.KeyClass)
	ex := s.do(ctx, j, client.Request{Method: http.MethodGet, Path: path}, "")
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		return
	}
	key := gen.Fill(c.Key, "", s.marker())
	j.Single(c.Endpoint, c.KeyClass, key, ex)
}

// tokenValue is what a case sends of a token: the value, and whether the
// parameter is sent at all. A wrong one is well-formed and differs from
// the valid one (probe.WrongToken).
func tokenValue(t gen.Token, valid string) (string, bool) {
	switch t {
	case gen.TokenMissing:
		return "", false
	case gen.TokenEmpty:
		return "", true
	case gen.TokenWrong:
		return *probe.WrongToken(valid), true
	}
	return valid, true
}

// token sends a request whose tokens the case places itself, and judges
// the answer by what it carried.
func (s *session) token(ctx context.Context, c gen.Case, j *oracle.Judge) {
	r := client.Request{Method: c.Method, Path: "/api/" + c.Endpoint, Credentials: client.NoTokens, Query: url.Values{}}
	if c.Key != "" {
		r.Path = s.keyPath(c.Endpoint, c.Key, c.KeyClass)
	}
	auth := c.NeedsAuth()
	inBody := c.Method == http.MethodPut
	fields := map[string]any{}
	for _, f := range s.fields(c.Fields, "") {
		fields[f.Name] = f.Value
	}
	place := func(name string, t gen.Token, valid string) {
		v, sent := tokenValue(t, valid)
		if !sent {
			return
		}
		if inBody != (t == gen.TokenElsewhere) {
			fields[name] = v
		} else {
			r.Query.Set(name, v)
		}
	}
	place("token", c.APIToken, s.c.Token())
	if auth {
		place("authentication", c.AuthToken, s.c.AuthToken())
	}
	if len(fields) > 0 {
		r.JSON = fields
	}
	// A write that carries no valid authentication token cannot change
	// anything: a read-only run may send it (the client refuses the rest).
	r.Probe = c.AuthToken != gen.TokenValid
	ex := s.do(ctx, j, r, "")
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		return
	}
	j.Tokens(c, ex)
	if c.Method != http.MethodGet && c.Key != "" && sideeffect.Refused(ex.Status) {
		s.refusedMissing(ctx, j, refusedRule(auth && c.AuthToken == gen.TokenValid), gen.Fill(c.Key, "", s.marker()))
	}
}

// rawBody sends a body the spec does not describe, or a create body with
// the tokens under a Content-Type other than JSON's.
func (s *session) rawBody(ctx context.Context, c gen.Case, j *oracle.Judge) {
	path := "/api/" + c.Endpoint
	if c.Key != "" {
		path = s.keyPath(c.Endpoint, c.Key, c.KeyClass)
	}
	r := client.Request{Method: c.Method, Path: path, Credentials: client.NoTokens, Raw: []byte(c.Raw), RawContentType: c.ContentType, Probe: true}
	slug := s.newSlug()
	if c.WithTokens {
		fields := map[string]any{"token": s.c.Token(), "authentication": s.c.AuthToken()}
		for _, f := range s.fields(c.Fields, slug) {
			fields[f.Name] = f.Value
		}
		r.Raw, r.Probe = jsonText(fields), false
	}
	ex := s.do(ctx, j, r, "")
	if !c.WithTokens {
		if oracle.Judgeable(ex) && ex.Status < 500 {
			j.Check("AUTH-MISSING-TOKEN-400", ex.Status >= 400, ex, "status", "a refusal (400): the body carries no API token", "HTTP "+http.StatusText(ex.Status))
			j.Observe("a %s body sent as %q was answered %d", c.Method, c.ContentType, ex.Status)
			if c.Endpoint == "pages" && c.Key != "" && sideeffect.Refused(ex.Status) {
				s.refusedMissing(ctx, j, ruleRefused, gen.Fill(c.Key, "", s.marker()))
			}
		}
		return
	}
	_, remove := s.removeCreated(ctx, ex, slug)
	defer remove()
	if !oracle.Judgeable(ex) || ex.Status >= 500 {
		return
	}
	if sideeffect.Refused(ex.Status) {
		s.refusedCreate(ctx, j, ruleRefused, s.fields(c.Fields, slug), slug, nil)
	}
	j.Observe("a JSON create body sent as %q was answered %d", c.ContentType, ex.Status)
	if strings.EqualFold(c.ContentType, "application/json") {
		j.Status("GEN-JSON-BODY", ex, http.StatusCreated)
	}
}
