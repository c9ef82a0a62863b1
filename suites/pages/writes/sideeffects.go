package writes

// What a page write may not do to the rest of the site: a write refused
// with a 4xx leaves nothing of what it sent or addressed
// (PAGE-REFUSED-WRITE-NO-EFFECT: the refused create, edits and delete of
// refusals.go and types.go, each read back once), and a create whose slug
// another page's key has leaves that page as it was (PAGE-CREATE-KEEPS-OTHERS:
// the collision chain). The judgements are internal/rules/sideeffect's.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/readback"
	"github.com/conformance-suite/conformance/internal/rules/sideeffect"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerSideEffects registers the specs of both rules. The refusals'
// chains have their leads in the sections of create, edit and delete,
// registered before; the collision chain's lead is here.
func (s *suite) registerSideEffects() {
	judgeOn(s, s.collision, "PAGE-CREATE-KEEPS-OTHERS", s.judgeCollision, spec.CreatePage)
	judgeOn(s, s.invalidCreate, "PAGE-REFUSED-WRITE-NO-EFFECT", s.judgeRefusedCreate,
		framework.Case("a create with a type outside the five"), spec.CreatePage)
	judgeOn(s, s.published, "PAGE-REFUSED-WRITE-NO-EFFECT", s.judgeRefusedEdit,
		framework.Case("an edit of a run page with a type outside the five"), spec.EditPage)
	judgeOn(s, s.editMissing, "PAGE-REFUSED-WRITE-NO-EFFECT", s.judgeRefusedMissing,
		framework.Case("an edit of a key no page has"), spec.EditPage)
	judgeOn(s, s.deleteMissing, "PAGE-REFUSED-WRITE-NO-EFFECT", s.judgeRefusedMissing,
		framework.Case("a delete of a key no page has"), spec.DeletePage)
}

// needRefusal makes the running spec not checked unless ex, the write
// judged (what), was refused with a 4xx: an accepted write, or a 5xx (a
// server-side failure, possibly part-way), is not
// PAGE-REFUSED-WRITE-NO-EFFECT's to judge.
func needRefusal(ex *client.Exchange, what string) {
	if ex.StatusErr() != nil || !sideeffect.Refused(ex.Status) {
		verdicts.NotChecked("%s was not refused with a 4xx: %s", what, match.Outcome(ex))
	}
}

// needReadBack makes the running spec not checked when the read after the
// refusal (why) got no answer.
func needReadBack(read *client.Exchange, why string) {
	if read == nil || read.Err != nil {
		verdicts.NotChecked("reading back %s failed: %s", why, match.Outcome(read))
	}
}

// expectJudged expects j, the judgement of read, to hold (expect words it),
// and makes the spec not checked when j cannot judge read.
func expectJudged(j rules.Judgement, read *client.Exchange, expect string) {
	if j.Skip {
		verdicts.NotChecked("%s: the read back answered %s, which shows neither way", expect, match.Outcome(read))
	}
	ExpectWithOffset(1, read).To(match.Holds(expect, func(*client.Exchange) []string { return j.Problems() }))
}

// judgeRefusedCreate: the create with a type outside the five, refused,
// leaves no page at the slug it sent.
func (s *suite) judgeRefusedCreate(_ SpecContext, r *invalidCreate) {
	needRefusal(r.create, "the create with type "+invalidType)
	needReadBack(r.read, "the slug the refused create sent")
	s.markKind(coverage.WriteRefused400, coverage.ViewSingle)
	expectJudged(sideeffect.NoPage(r.read.Status, r.read.Get("data"), r.slug), r.read,
		fmt.Sprintf("no page at %s after the create that sent it was refused (%s)", r.slug, r.create.RequestLine()))
}

// judgeRefusedEdit: the edit of the published chain's page with a type
// outside the five and a new description, refused, leaves the page at its
// key with its type and description as the read after the edit before it
// showed them.
func (s *suite) judgeRefusedEdit(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	e := p.invalid
	needRefusal(e.ex, "the edit with type "+invalidType)
	before := p.edits[0].read
	if before == nil || before.Err != nil || before.Status != http.StatusOK || before.Get("data.key").String() != e.from {
		verdicts.NotChecked("page %s was not read before the edit: %s", e.from, match.Outcome(before))
	}
	needReadBack(e.read, "the page after the refused edit")
	s.markKind(coverage.WriteRefused400, coverage.ViewSingle)
	fields := readback.Sent(func(b string) bool { _, ok := e.sent[b]; return ok })
	expectJudged(sideeffect.Kept(before.Get("data"), e.read.Status, e.read.Get("data"), e.from, fields), e.read,
		fmt.Sprintf("page %s reads as before the refused edit (%s): %s as before", e.from, e.ex.RequestLine(),
			strings.Join(append([]string{"key"}, fields...), ", ")))
}

// judgeRefusedMissing: the edit or delete of a key no page has, refused,
// leaves no page at that key.
func (s *suite) judgeRefusedMissing(_ SpecContext, m *missingKey) {
	needRefusal(m.ex, m.ex.RequestLine())
	needReadBack(m.after, "the key after the refused write")
	s.markKind(coverage.WriteRefused404, coverage.ViewSingle)
	expectJudged(sideeffect.NoPage(m.after.Status, m.after.Get("data"), m.key), m.after,
		fmt.Sprintf("no page at %s after the refused %s", m.key, m.ex.RequestLine()))
}

// collision is a page of the run (the other page) and a create whose slug
// is its key, with the other page read before and after that create.
type collision struct {
	trail
	set           map[string]any   // the fields the run set on the other page
	made          *client.Exchange // the other page's create
	other         string           // its key ("" when not made)
	before, after *client.Exchange // it, read before and after the create
	// shown is what the views showed after the create: the other page
	// read (after) and the listing of its type.
	shown  *seen
	create *client.Exchange // the create with the other page's key as slug
	key    string           // the page that create made ("" when none)
}

// makeCollision: a draft with every field a create sets that 2.1 shows
// (a category when the target has one), read back; then a draft whose
// slug is the first one's key, with another title, description and
// content; then the first page read again. Both are removed.
func (s *suite) makeCollision(ctx context.Context) *collision {
	t, k := s.t, s.k
	c := &collision{set: map[string]any{
		"slug":        t.Marker("taken-slug"),
		"title":       k.title("Taken Slug"),
		"description": "Conformance page whose slug a later create sends",
		"content":     "This page's slug is sent again by another create of run " + t.RunID + ".",
		"tags":        s.tagName("Taken Slug"),
		"date":        pastDate,
	}}
	if cats := s.categoryKeys(ctx); len(cats) > 0 {
		c.set["category"] = cats[0]
	}
	c.made, c.other = t.CreatePage(ctx, c.set)
	c.add(c.made)
	if c.other == "" {
		return c
	}
	c.before = c.add(k.read(ctx, c.other))
	c.create, c.key = t.CreatePage(ctx, map[string]any{
		"slug":        c.other,
		"title":       k.title("Taking Slug"),
		"description": "Conformance page created with a slug another page has",
		"content":     "This create of run " + t.RunID + " sends the slug of another page.",
	})
	c.add(c.create)
	l := look{what: "after a create sent its key as slug"}
	if ty := c.before.Get("data.type").String(); slices.Contains(pagelist.PageTypes(), ty) {
		l.listTypes = [][]string{{ty}}
	}
	c.shown = s.readAfter(ctx, &c.trail, l, c.other, "", c.create)
	c.shown.kinds = []string{coverage.WriteCollide}
	c.after = c.shown.page
	if c.key != c.other {
		k.remove(ctx, c.key)
	}
	k.remove(ctx, c.other)
	return c
}

// judgeCollisionListed: PAGE-CREATE-KEEPS-OTHERS in the listing of the
// other page's type read beside it: it lists the page, as before.
func (s *suite) judgeCollisionListed(c *collision, before *client.Exchange, fields []string) {
	for _, l := range c.shown.lists {
		listed, decided, ex := l.shows(c.other)
		if !decided || pagelist.Unread(ex) != "" {
			continue // PAGE-LIST-TYPE-FILTERS judges a listing that gave no page list
		}
		s.markViews(c.shown, coverage.ViewList)
		Expect(listed).To(BeTrue(), match.Evidence(ex, "the listing of page %s's type lists it after the create that sent its key as slug (%s)",
			c.other, c.create.RequestLine()))
		var item gjson.Result
		for _, p := range pagelist.PageItems(ex).All() {
			if p.Get("key").String() == c.other {
				item = p
			}
		}
		expectJudged(sideeffect.Kept(before.Get("data"), http.StatusOK, item, c.other, fields), ex,
			fmt.Sprintf("page %s is listed as before the create that sent its key as slug (%s)", c.other, c.create.RequestLine()))
	}
}

// judgeCollision: PAGE-CREATE-KEEPS-OTHERS. The create with a taken slug
// may be refused or give the new page another key; the other page reads
// as before under its key, whatever the create answered.
func (s *suite) judgeCollision(_ SpecContext, c *collision) {
	needPage(c.made, c.other)
	before := expectRead(c.before, "before a create sends its key as slug")
	if c.create.StatusErr() != nil {
		verdicts.NotChecked("the create with a taken slug got no answer: %s", match.Outcome(c.create))
	}
	needReadBack(c.after, "the page whose slug the create took")
	fields := readback.Sent(func(b string) bool { _, ok := c.set[b]; return ok })
	s.markViews(c.shown, coverage.ViewSingle)
	expectJudged(sideeffect.Kept(before.Get("data"), c.after.Status, c.after.Get("data"), c.other, fields), c.after,
		fmt.Sprintf("page %s reads as before the create that sent its key as slug (%s): %s as before", c.other,
			c.create.RequestLine(), strings.Join(append([]string{"key"}, fields...), ", ")))
	s.judgeCollisionListed(c, before, fields)
	Expect(c.create).To(match.Holds(fmt.Sprintf("a create whose slug %s is taken gives its page a key of its own, or is refused", c.other),
		rules.ProblemsOf(func(ex *client.Exchange) rules.Judgement {
			return sideeffect.OwnKey(ex.Status, ex.Get("data"), c.other)
		})))
	if sideeffect.Refused(c.create.Status) {
		s.t.Observe("PAGE-CREATE-KEEPS-OTHERS: a create whose slug is another page's key was refused (HTTP %d); "+
			"the spec does not say whether such a create is refused or made unique", c.create.Status)
	}
}
