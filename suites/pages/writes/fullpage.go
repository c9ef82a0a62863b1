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
	"github.com/conformance-suite/conformance/internal/framework"
)

// fullPage is a draft created with title, description, content (Markdown),
// tags, category (when the target has one), date, slug and a cover image,
// read back, then edited with description alone and with title alone, each
// edit read back; then deleted.
type fullPage struct {
	trail
	categories *client.Exchange // GET /api/categories
	category   string           // the key sent, "" when the target lists none
	sent       map[string]any   // the body of the create
	tags       []string         // the tag names sent
	plain      string           // the words of the content sent, before its Markdown
	created    *client.Exchange
	key        string // the page created ("" when the create made none)
	read       *client.Exchange
	descSent   string
	descEdit   *client.Exchange
	afterDesc  *client.Exchange
	titleSent  string
	titleEdit  *client.Exchange
	afterTitle *client.Exchange
}

func (s *suite) makeFullPage(ctx context.Context) *fullPage {
	t, k := s.t, s.k
	p := &fullPage{}
	p.categories = p.add(k.t.Read(ctx, "/api/categories", nil))
	p.category = firstCategory(p.categories)
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

	p.titleSent = k.title("Partial Retitled")
	p.titleEdit = p.add(k.edit(ctx, key, map[string]any{"title": p.titleSent}))
	key = t.FollowEdit(ctx, key, p.titleEdit, t.Marker("partial-retitled"))
	p.afterTitle = p.add(k.read(ctx, key))
	k.remove(ctx, key)
	return p
}

// firstCategory returns the key of the first category a GET
// /api/categories answer lists, or "" when there is none or the list failed.
func firstCategory(ex *client.Exchange) string {
	if ex.Err != nil || ex.Status != http.StatusOK {
		return ""
	}
	for _, c := range ex.Get("data").Array() {
		if key := c.Get("key"); key.Type == gjson.String && key.Str != "" {
			return key.Str
		}
	}
	return ""
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
	if p.category == "" {
		s.t.Observe("PAGE-CREATE-FIELDS: GET /api/categories names no category, so category was not sent on create")
	}
	for _, c := range p.createdAndRead(s.k, "the create with every field") {
		expectEncodedOnce(c.ex, "data.title", p.title(), c.why+": title, HTML-encoded once")
		expectString(c.ex, "data.description", p.sent["description"].(string), c.why+": description")
		expectEncodedOnce(c.ex, "data.contentRaw", p.sent["content"].(string), c.why+": contentRaw, the source HTML-encoded once")
		// The content sent is Markdown: its words come back, its ** as HTML.
		Expect(c.ex.Get("data.content").String()).To(ContainSubstring(p.plain),
			framework.Evidence(c.ex, "%s: content holds the text sent", c.why))
		expectString(c.ex, "data.type", "draft", c.why+": type")
		expectTagNames(c.ex, "data.tags", p.tags, c.why+": tags")
		if p.category != "" {
			expectString(c.ex, "data.category", p.category, c.why+": category (a key GET /api/categories listed)")
		}
		expectString(c.ex, "data.dateRaw", pastDate, c.why+": dateRaw, the publish date as sent")
		// date is the display form: only its form is fixed (2.1).
		Expect(c.ex).To(framework.HaveJSON("data.date", MatchRegexp(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)),
			c.why+": date, the display form YYYY-MM-DD HH:MM:SS")
		expectString(c.ex, "data.slug", p.sent["slug"].(string), c.why+": slug")
	}
}

// judgeTitleJSON: PAGE-TITLE-ENCODED for the title sent in a JSON body.
// Read back as e.g. "Salt &amp; Pepper &lt;b&gt;": any once-encoding
// passes (see framework.BeEncodedOnce).
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
			framework.Evidence(c.ex, "%s: content %q renders **bold** as <strong>bold</strong> or <b>bold</b>", c.why, html))
		Expect(c.ex.Get("data.contentRaw").String()).To(ContainSubstring("**bold**"),
			framework.Evidence(c.ex, "%s: contentRaw holds the Markdown source %q", c.why, p.sent["content"]))
	}
}

func (s *suite) judgeTagsMap(_ SpecContext, p *fullPage) {
	s.k.created(p.created, "the create")
	if p.created.Get("data.tags").Exists() {
		expectTagNames(p.created, "data.tags", p.tags, "the create response")
	}
	expectTagNames(expectRead(p.read, "its tags"), "data.tags", p.tags, "the page read back")
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
			framework.NotChecked("the page created with coverImage %q has coverImage %s in %s: no cover image to judge",
				file, framework.Show(cover), c.why)
		}
		Expect(c.ex).To(framework.HaveJSON("data.coverImage", beAbsoluteURL()),
			"%s: coverImage of a page created with the cover image filename %q", c.why, file)
	}
}

// judgePartial: the page holds every field the suite can set and read back;
// two edits each send one field: description alone (every other field
// omitted), then title alone (description omitted).
func (s *suite) judgePartial(_ SpecContext, p *fullPage) {
	needPage(p.created, p.key)
	if p.category == "" {
		s.t.Observe("PAGE-EDIT-PARTIAL: GET /api/categories names no category, so category was not part of the check")
	}
	before := expectRead(p.read, "before the edits")
	if empty := emptyFields(before, "description", "contentRaw", "tags", "category", "coverImage"); len(empty) > 0 {
		// Not kept at create (PAGE-CREATE-FIELDS judges that): an edit
		// that blanks them cannot show here.
		s.t.Observe("PAGE-EDIT-PARTIAL: the page created for the check holds no %s, so losing it on edit could not show",
			strings.Join(empty, ", "))
	}

	Expect(p.descEdit).To(framework.HaveHTTPStatus(http.StatusOK), "an edit that sends only description")
	afterDesc := expectRead(p.afterDesc, "after an edit that sent only description")
	expectString(afterDesc, "data.description", p.descSent, "the field sent")
	expectUnchanged(before, afterDesc, stableFields(), "fields the edit sending only description did not send changed")

	Expect(p.titleEdit).To(framework.HaveHTTPStatus(http.StatusOK), "an edit that sends only title")
	afterTitle := expectRead(p.afterTitle, "after an edit that sent only title")
	expectEncodedOnce(afterTitle, "data.title", p.titleSent, "the field sent")
	// A new title may move the page (3.2): its key, slug and permalink may
	// change, and its uuid is PAGE-UUID-STABLE's.
	expectUnchanged(afterDesc, afterTitle,
		append([]string{"description"}, without(stableFields(), "key", "slug", "permalink", "uuid", "title")...),
		"fields the edit sending only title did not send changed")
}
