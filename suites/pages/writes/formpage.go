package writes

// The page created with a form-encoded body, whose title PAGE-TITLE-ENCODED
// judges (1.4, 2.1). The request-body rules of section 1 themselves are
// suites/protocol's.

import (
	"context"
	"net/url"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// formPage is a page created with a form-encoded body and read back.
type formPage struct {
	trail
	title   string
	created *client.Exchange
	key     string // the page created ("" when the create made none)
	read    *client.Exchange
}

func (s *suite) makeFormPage(ctx context.Context) *formPage {
	p := &formPage{title: s.k.title("Salt & Pepper <b>")}
	p.created, p.key = s.k.createForm(ctx, url.Values{"title": {p.title}})
	p.add(p.created)
	if p.key != "" {
		p.read = p.add(s.k.read(ctx, p.key))
		s.k.remove(ctx, p.key)
	}
	return p
}

// judgeTitleForm: PAGE-TITLE-ENCODED for the title sent in a form body.
func (s *suite) judgeTitleForm(_ SpecContext, p *formPage) {
	if p.key == "" {
		verdicts.NotChecked("the form-encoded create was not accepted (%s; GEN-FORM-BODY judges that)", match.Outcome(p.created))
	}
	s.k.created(p.created, "the create")
	why := "title " + p.title + " sent in a form body (encoded once; never &amp;amp;)"
	if p.created.Get("data.title").Exists() {
		s.t.ExpectReadBack(bodyCell("title", coverage.Create), p.created, "data.title", match.BeEncodedOnce(p.title), "the create response: "+why)
	}
	s.t.ExpectReadBack(bodyCell("title", coverage.Create), expectRead(p.read, "its title"), "data.title", match.BeEncodedOnce(p.title),
		"the page read back: "+why)
}
