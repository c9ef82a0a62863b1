package explore

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/rules/sideeffect"
)

// A write the server refused (400, 401, 404: sideeffect.Refused) must
// have changed nothing it sent or addressed. After every such answer to a
// page write, explore reads back what the write named, and judges it with
// rules/sideeffect, as the normal run judges its refused writes: no page
// at the key a create sent (or would have made under its parent) and the
// same number of pages of every type as just before it; a page edited
// as it was; no page at a key no page had. (A refused settings update is
// read back by exec_settings.go.)

// Rules a refused write with an effect breaks.
const (
	ruleRefused     = "PAGE-REFUSED-WRITE-NO-EFFECT"
	ruleAuthRefused = "AUTH-REFUSED-WRITE-NO-EFFECT"
)

// refusedRule is the rule of a write refused with status, sent with a
// valid authentication token or not: one without it is refused for that
// (5.5), one with it for what it sends or addresses (7).
func refusedRule(validAuth bool) string {
	if validAuth {
		return ruleRefused
	}
	return ruleAuthRefused
}

// everyType is the page list of every type of section 3, one page of it:
// its meta.total counts every page of the site.
func everyType() url.Values {
	return url.Values{"published": {"true"}, "draft": {"true"}, "static": {"true"}, "sticky": {"true"}, "scheduled": {"true"}, "numberOfItems": {"1"}}
}

// pageTotal reads the list of every type, before a create that may be
// refused (judged as every answer is).
func (s *session) pageTotal(ctx context.Context, j *oracle.Judge) *client.Exchange {
	return s.do(ctx, j, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: everyType(), Fresh: true}, "")
}

// totalWhat is what a refused create's meta.total judges.
const totalWhat = "refused create: meta.total"

// countFirst reports whether the number of pages is read before a create,
// so that a refusal can be judged against it: the create may be refused
// without breaking a rule by it (a field the spec does not promise to
// take, or at an edge a server may refuse), and no finding of another
// judgement is being shrunk (a read that could not change its outcome).
func (s *session) countFirst(c gen.Case) bool {
	return !c.Valid() && (s.shrinking == "" || strings.HasSuffix(s.shrinking, ": "+totalWhat))
}

// refusedCreate judges a create the server refused (rule: refusedRule):
// no page at the slug it sent, nor under the parent it named; and, when
// the key reads show none, as many pages of every type as total (the list
// read just before the create; nil when not read) shows.
func (s *session) refusedCreate(ctx context.Context, j *oracle.Judge, rule string, fs []gen.Field, slug string, total *client.Exchange) {
	keys := []string{slug}
	for _, f := range fs {
		if p, ok := f.Value.(string); ok && f.Name == "parent" && p != "" {
			keys = append(keys, p+"/"+slug)
		}
	}
	clean := true
	for _, key := range keys {
		after := s.readPage(ctx, j, key)
		clean = j.Judged(rule, after, "refused create", "no page at "+key+" after the refusal", sideeffect.NoPage(after.Status, after.Get("data"), key)) && clean
		if after.Status == http.StatusOK && after.Get("data.key").String() == key {
			s.adopt(key)
			defer s.remove(ctx, key)
		}
	}
	if total == nil || !clean {
		return
	}
	now := s.pageTotal(ctx, j)
	j.Judged(rule, now, totalWhat, "as many pages of every type as before the refusal ("+total.Get("meta.total").Raw+")",
		sideeffect.TotalKept(total.Status, total.JSON(), now.Status, now.JSON()))
}

// refusedMissing judges a write to a key no page has that the server
// refused (an edit or a delete of a run-marked missing key): no page
// there after it.
func (s *session) refusedMissing(ctx context.Context, j *oracle.Judge, rule, key string) {
	after := s.readPage(ctx, j, key)
	j.Judged(rule, after, "refused write to a missing key", "no page at "+key+" after the refusal", sideeffect.NoPage(after.Status, after.Get("data"), key))
	if after.Status == http.StatusOK && after.Get("data.key").String() == key {
		s.adopt(key)
		s.remove(ctx, key)
	}
}
