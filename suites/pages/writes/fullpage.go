package writes

// The page created with every field the suite can set and read back (JSON
// body): what the create (4.3) and the page type draft (3) show, then two
// edits that each send one field (4.4).

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// fullPage is a draft created with title, description, content (Markdown),
// tags, category (when the target has one), date, slug and a cover image,
// read back, then edited twice, each edit read back: with description
// alone, then with every other field it can change (title, content, tags,
// the second category when the target has two, date, cover image), so
// that each field is shown kept by the edit that omits it and changed by
// the one that sends it (4.4: only fields present change); then deleted.
type fullPage struct {
	trail
	categories []string       // the target's categories
	category   string         // the key sent on create, "" when the target lists none
	sent       map[string]any // the body of the create
	tags       []string       // the tag names sent
	plain      string         // the words of the content sent, before its Markdown
	created    *client.Exchange
	key        string // the page created ("" when the create made none)
	read       *client.Exchange
	descSent   string
	descEdit   *client.Exchange
	afterDesc  *client.Exchange
	// The second edit: what it sent, its answer and the page read back.
	edit       map[string]any
	editTags   []string
	editPlain  string
	editCat    string // "" when the target has one category or none
	titleEdit  *client.Exchange
	afterTitle *client.Exchange
}

// editedDate is the publish date the second edit sends.
const editedDate = "2002-03-04 05:06:07"

func (s *suite) makeFullPage(ctx context.Context) *fullPage {
	t, k := s.t, s.k
	p := &fullPage{}
	p.add(s.categories(ctx))
	p.categories = s.categoryKeys(ctx)
	if len(p.categories) > 0 {
		p.category = p.categories[0]
	}
	p.tags = []string{"Conformance " + t.RunID + " Tag One", "Conformance " + t.RunID + " Tag Two"}
	p.plain = "Conformance fields content " + t.RunID
	p.sent = map[string]any{
		// Salt & Pepper <b>: the title whose encoding PAGE-TITLE-ENCODED
		// judges; it starts with the run marker's words (k.title).
		"title": k.title("Salt & Pepper <b>"), "description": "Conformance fields description " + t.RunID,
		"content": p.plain + " and **bold** text", "type": "draft", "date": pastDate, "slug": t.Marker("fields"),
		// "One, Two": spaces after the comma, which PAGE-TAGS-MAP trims.
		"tags": strings.Join(p.tags, ", "), "coverImage": coverImageFile(t),
	}
	if p.category != "" {
		p.sent["category"] = p.category
	}
	p.created, p.key = t.CreatePage(ctx, p.sent)
	p.add(p.created)
	if p.key == "" {
		return p
	}
	key := p.key
	p.read = p.add(k.read(ctx, key))

	p.descSent = "Conformance edited description " + t.RunID
	p.descEdit = p.add(k.edit(ctx, key, map[string]any{"description": p.descSent}))
	key = t.FollowEdit(ctx, key, p.descEdit)
	p.afterDesc = p.add(k.read(ctx, key))

	p.editTags = []string{"Conformance " + t.RunID + " Tag Three"}
	p.editPlain = "Conformance edited content " + t.RunID
	p.edit = map[string]any{"title": k.title("Partial Retitled"), "content": p.editPlain + " and *more*", "tags": p.editTags[0],
		"date": editedDate, "coverImage": t.Marker("cover-edited") + ".png"}
	if len(p.categories) > 1 {
		p.editCat = p.categories[1]
		p.edit["category"] = p.editCat
	}
	p.titleEdit = p.add(k.edit(ctx, key, p.edit))
	key = t.FollowEdit(ctx, key, p.titleEdit, t.Marker("partial-retitled"))
	p.afterTitle = p.add(k.read(ctx, key))
	k.remove(ctx, key)
	return p
}

func (p *fullPage) title() string { return p.sent["title"].(string) }

// createdAndRead is the create response and the page read back, for a
// rule about the create: not checked when the create was refused or not
// sent (see kit.created).
func (p *fullPage) createdAndRead(k kit, what string) []answer {
	k.created(p.created, what)
	return createdAndRead(p.created, expectReadOffset(2, p.read, what))
}

func (s *suite) judgeCreateFields(_ SpecContext, p *fullPage) {
	t := s.t
	if p.category == "" {
		t.Observe("PAGE-CREATE-FIELDS: GET /api/categories names no category, so category was not sent on create")
	}
	for _, c := range p.createdAndRead(s.k, "the create with every field") {
		t.ExpectReadBack(bodyCell("title", coverage.Create), c.ex, "data.title", match.BeEncodedOnce(p.title()),
			c.why+": title, HTML-encoded once")
		t.ExpectReadBack(bodyCell("description", coverage.Create), c.ex, "data.description", Equal(p.sent["description"]),
			c.why+": description")
		t.ExpectReadBack(bodyCell("content", coverage.Create), c.ex, "data.contentRaw", match.BeEncodedOnce(p.sent["content"].(string)),
			c.why+": contentRaw, the source HTML-encoded once")
		// The content sent is Markdown: its words come back, its ** as HTML.
		t.ExpectReadBack(bodyCell("content", coverage.Create), c.ex, "data.content", ContainSubstring(p.plain),
			c.why+": content holds the text sent")
		t.ExpectReadBack(bodyCell("type", coverage.Create), c.ex, "data.type", haveType("draft"), c.why+": type")
		t.ExpectReadBack(bodyCell("tags", coverage.Create), c.ex, "data.tags", haveTagNames(p.tags), c.why+": tags")
		if p.category != "" {
			t.ExpectReadBack(bodyCell("category", coverage.Create), c.ex, "data.category", Equal(p.category),
				c.why+": category (a key GET /api/categories listed)")
		}
		t.ExpectReadBack(bodyCell("date", coverage.Create), c.ex, "data.dateRaw", Equal(pastDate), c.why+": dateRaw, the publish date as sent")
		// date is the display form: only its form is fixed (2.1).
		t.ExpectReadBack(bodyCell("date", coverage.Create), c.ex, "data.date", MatchRegexp(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`),
			c.why+": date, the display form YYYY-MM-DD HH:MM:SS")
		t.ExpectReadBack(bodyCell("slug", coverage.Create), c.ex, "data.slug", Equal(p.sent["slug"]), c.why+": slug")
		expectCoverFile(t, bodyCell("coverImage", coverage.Create), c.ex, p.sent["coverImage"].(string),
			keepsCoverFile(p.afterTitle, p.edit["coverImage"]), "PAGE-CREATE-FIELDS",
			c.why+": coverImageFilename, the cover image filename sent as coverImage")
	}
}

// judgeTitleJSON: PAGE-TITLE-ENCODED for the title sent in a JSON body.
// Read back as e.g. "Salt &amp; Pepper &lt;b&gt;": any once-encoding
// passes (see match.BeEncodedOnce).
func (s *suite) judgeTitleJSON(_ SpecContext, p *fullPage) {
	s.k.created(p.created, "the create")
	why := "title " + p.title() + " sent in a JSON body (encoded once; never &amp;amp;)"
	expectEncodedOnceIfPresent(p.created, "data.title", p.title(), "the create response: "+why)
	expectEncodedOnce(expectRead(p.read, "its title"), "data.title", p.title(), "the page read back: "+why)
}

func (s *suite) judgeMarkdown(_ SpecContext, p *fullPage) {
	for _, c := range p.createdAndRead(s.k, "the create") {
		if c.ex == p.created && !p.created.Get("data.content").Exists() {
			continue // the create response's shape is PAGE-CREATE-201's
		}
		html := c.ex.Get("data.content").String()
		Expect(strings.Contains(html, "<strong>bold</strong>") || strings.Contains(html, "<b>bold</b>")).To(BeTrue(),
			match.Evidence(c.ex, "%s: content %q renders **bold** as <strong>bold</strong> or <b>bold</b>", c.why, html))
		Expect(c.ex.Get("data.contentRaw").String()).To(ContainSubstring("**bold**"),
			match.Evidence(c.ex, "%s: contentRaw holds the Markdown source %q", c.why, p.sent["content"]))
	}
}

func (s *suite) judgeTagsMap(_ SpecContext, p *fullPage) {
	s.k.created(p.created, "the create")
	if p.created.Get("data.tags").Exists() {
		s.t.ExpectReadBack(bodyCell("tags", coverage.Create), p.created, "data.tags", haveTagNames(p.tags), "the create response")
	}
	s.t.ExpectReadBack(bodyCell("tags", coverage.Create), expectRead(p.read, "its tags"), "data.tags", haveTagNames(p.tags),
		"the page read back")
}

// judgeCoverImage: a filename was sent, not a URL: the server must make the
// URL itself.
func (s *suite) judgeCoverImage(_ SpecContext, p *fullPage) {
	file := p.sent["coverImage"].(string)
	for _, c := range p.createdAndRead(s.k, "the create with a cover image") {
		cover := c.ex.Get("data.coverImage")
		if c.ex == p.created && !cover.Exists() {
			continue // the create response's shape is PAGE-CREATE-201's
		}
		if cover.Type != gjson.String {
			verdicts.NotChecked("the page created with coverImage %q has coverImage %s in %s: no cover image to judge",
				file, match.Show(cover), c.why)
		}
		Expect(c.ex).To(match.HaveJSON("data.coverImage", beAbsoluteURL()),
			"%s: coverImage of a page created with the cover image filename %q", c.why, file)
	}
}

// judgePartial: the page holds every field the suite can set and read back;
// the first edit sends description alone (every other field omitted), the
// second every other field it can change (description omitted). Each
// field is read back changed after the edit that sends it and as before
// after the edit that omits it.
func (s *suite) judgePartial(_ SpecContext, p *fullPage) {
	t := s.t
	needPage(p.created, p.key)
	if p.category == "" {
		t.Observe("PAGE-EDIT-PARTIAL: GET /api/categories names no category, so category was not part of the check")
	} else if p.editCat == "" {
		t.Observe("PAGE-EDIT-PARTIAL: GET /api/categories names one category, so no edit could change a page's category")
	}
	before := expectRead(p.read, "before the edits")
	if empty := emptyFields(before, "description", "contentRaw", "tags", "category", "coverImage"); len(empty) > 0 {
		// Not kept at create (PAGE-CREATE-FIELDS judges that): an edit
		// that blanks them cannot show here.
		t.Observe("PAGE-EDIT-PARTIAL: the page created for the check holds no %s, so losing it on edit could not show",
			strings.Join(empty, ", "))
	}

	Expect(p.descEdit).To(match.HaveHTTPStatus(http.StatusOK), "an edit that sends only description")
	afterDesc := expectRead(p.afterDesc, "after an edit that sent only description")
	t.ExpectReadBack(bodyCell("description", coverage.Edit), afterDesc, "data.description", Equal(p.descSent), "the field sent")
	expectKept(t, before, afterDesc, "the fields the edit sending only description did not send keep their values", stableFields()...)

	Expect(p.titleEdit).To(match.HaveHTTPStatus(http.StatusOK), "an edit that sends every field but description")
	after := expectRead(p.afterTitle, "after an edit that sent every field but description")
	t.ExpectReadBack(bodyCell("title", coverage.Edit), after, "data.title", match.BeEncodedOnce(p.edit["title"].(string)), "title sent")
	t.ExpectReadBack(bodyCell("content", coverage.Edit), after, "data.contentRaw", match.BeEncodedOnce(p.edit["content"].(string)),
		"content sent (contentRaw, the source)")
	t.ExpectReadBack(bodyCell("content", coverage.Edit), after, "data.content", ContainSubstring(p.editPlain), "content sent (rendered)")
	t.ExpectReadBack(bodyCell("tags", coverage.Edit), after, "data.tags", haveTagNames(p.editTags), "tags sent")
	if p.editCat != "" {
		t.ExpectReadBack(bodyCell("category", coverage.Edit), after, "data.category", Equal(p.editCat), "category sent")
	}
	t.ExpectReadBack(bodyCell("date", coverage.Edit), after, "data.dateRaw", Equal(editedDate), "date sent (dateRaw)")
	expectCoverFile(t, bodyCell("coverImage", coverage.Edit), after, p.edit["coverImage"].(string),
		keepsCoverFile(p.read, p.sent["coverImage"]), "PAGE-EDIT-PARTIAL", "coverImage sent (coverImageFilename)")
	// A new title may move the page (3.2): its key, slug and permalink may
	// change, and its uuid is PAGE-UUID-STABLE's.
	expectKept(t, afterDesc, after, "the fields the edit sending every field but description did not send keep their values",
		"description", "type", "username")
}

// judgeViewsOfWrites: PAGE-VIEWS-AGREE on the create and the two edits:
// each answer's page object is the page as read back right after it.
func (s *suite) judgeViewsOfWrites(_ SpecContext, p *fullPage) {
	needPage(p.created, p.key)
	check := s.t.NewCheck()
	for _, w := range []struct {
		what         string
		answer, read *client.Exchange
	}{{"the create", p.created, p.read}, {"the edit of description", p.descEdit, p.afterDesc}, {"the edit of every other field", p.titleEdit, p.afterTitle}} {
		if !succeeded(w.answer) || w.read == nil || w.read.Status != http.StatusOK {
			continue // the write rules judge those
		}
		check.Same("the page after "+w.what, pageViewCell, nil, []coverkit.View{
			{Name: "the answer to " + w.what, Ex: w.answer, Obj: w.answer.Get("data")},
			{Name: "the page read back", Ex: w.read, Obj: w.read.Get("data")},
		}, coverage.PageFields()...)
	}
	check.Expect("a write's answer carries the page as it is then read (2.1, 4.3, 4.4)")
}
