package reference

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Mutants that only generated input reveals (`conformance explore`): each
// breaks its rules for some values or combinations that no spec of the
// normal run sends, so the normal self-test leaves them to explore's
// (MutantInfo.ExploreOnly).
const (
	ExploreTagAmpersandCrash      Mutant = "explore-tag-ampersand-crash"
	ExploreCategoryDroppedTags    Mutant = "explore-category-dropped-over-three-tags"
	ExploreEditTypeAndDate500     Mutant = "explore-edit-type-and-date-500"
	ExploreUntaggedSizeOne500     Mutant = "explore-untagged-size-one-500"
	ExploreBigPageSize400         Mutant = "explore-big-page-size-400"
	ExploreDescriptionCut         Mutant = "explore-description-cut"
	ExploreFormQuoteTwice         Mutant = "explore-form-quote-encoded-twice"
	ExploreRefusedEditAppliesTags Mutant = "explore-refused-edit-applies-tags"
	ExploreMissingTagEchoesToken  Mutant = "explore-missing-tag-echoes-token"
	ExploreFilesEncodedDots       Mutant = "explore-files-encoded-dots"
	ExploreTextPlainCrash         Mutant = "explore-text-plain-crash"

	// One per boundary class of explore's generators (issue 32), each
	// reached only by values at the edge of a field's type.
	ExploreLongContentCut       Mutant = "explore-long-content-cut"
	ExploreControlCharCut       Mutant = "explore-control-char-cut"
	ExploreBlankTagSegment      Mutant = "explore-blank-tag-segment"
	ExploreNegativePosition500  Mutant = "explore-negative-position-500"
	ExploreBadDateCreatedAnyway Mutant = "explore-bad-date-created-anyway"
)

// longContentLimit is how many characters of content
// ExploreLongContentCut keeps.
const longContentLimit = 10_000

// onGenerated is a table row of a mutant only generated input reveals.
func onGenerated(name Mutant, rules, description string) MutantInfo {
	m := breaks(name, rules, description)
	m.ExploreOnly = true
	return m
}

// exploreTable describes the mutants only generated input reveals.
var exploreTable = []MutantInfo{
	onGenerated(ExploreTagAmpersandCrash, "GEN-NO-CRASH PAGE-CREATE-201 PAGE-EDIT-OK", "A create or edit whose tags hold a name with an ampersand crashes (500); the page is not written."),
	onGenerated(ExploreCategoryDroppedTags, "PAGE-CREATE-FIELDS", "A create with more than three tags stores no category, without a word."),
	onGenerated(ExploreEditTypeAndDate500, "GEN-NO-CRASH PAGE-EDIT-OK", "An edit that sends type and date together, the date another past one, crashes (500)."),
	onGenerated(ExploreUntaggedSizeOne500, "GEN-NO-CRASH PAGE-LIST-SHAPE", "GET /api/pages with untagged=true and numberOfItems=1 crashes (500)."),
	onGenerated(ExploreBigPageSize400, "PAGE-LIST-SHAPE PAGE-LIST-PAGENUMBER-BELOW-1 PAGE-LIST-PAST-END",
		"GET /api/pages with numberOfItems above 100 is refused with 400 (whatever page it asks for)."),
	onGenerated(ExploreDescriptionCut, "PAGE-CREATE-FIELDS PAGE-EDIT-PARTIAL", "A description longer than 80 characters is stored cut to its first 80."),
	onGenerated(ExploreFormQuoteTwice, "GEN-FORM-SANITISED-ONCE PAGE-TITLE-ENCODED", "A form-encoded title holding a double quote is HTML-encoded twice."),
	onGenerated(ExploreRefusedEditAppliesTags, "AUTH-REFUSED-WRITE-NO-EFFECT", "An edit refused for lack of a valid authentication token (401) still applies the tags it sends."),
	onGenerated(ExploreMissingTagEchoesToken, "AUTH-NO-TOKEN-IN-ANSWER", "GET of a missing tag whose key holds a character other than a-z, 0-9 and - answers 404 with the request's API token in its message."),
	onGenerated(ExploreFilesEncodedDots, "FILES-TRAVERSAL-400", "GET /api/files/{key} with .. percent-encoded (%2e%2e) is not refused (200 with an empty list)."),
	onGenerated(ExploreTextPlainCrash, "GEN-NO-CRASH", "A POST or PUT whose Content-Type is text/plain crashes (500) before any token is read."),
	onGenerated(ExploreLongContentCut, "PAGE-CREATE-FIELDS PAGE-EDIT-PARTIAL",
		"A content longer than 10,000 characters is stored cut to its first 10,000 (a column of that size)."),
	onGenerated(ExploreControlCharCut, "PAGE-CREATE-FIELDS PAGE-EDIT-PARTIAL",
		"A description holding an ASCII control character (other than line feed and carriage return) is stored cut just before it."),
	onGenerated(ExploreBlankTagSegment, "PAGE-TAGS-MAP PAGE-EDIT-PARTIAL",
		"Tags with an empty or blank segment between commas (\",a\", \"a,,b\", \"a, \") store a tag with an empty name besides the others."),
	onGenerated(ExploreNegativePosition500, "GEN-NO-CRASH PAGE-EDIT-OK",
		"A create or edit with a negative position crashes (500); the page is not written."),
	onGenerated(ExploreBadDateCreatedAnyway, "PAGE-REFUSED-WRITE-NO-EFFECT",
		"A create with a malformed date is refused with 400, and the page is made all the same, dated now."),
}

// explorePanic is what a crashing mutant panics with; ServeHTTP answers
// it with a 500.
type explorePanic string

// exploreInput crashes on a request the text/plain mutant breaks on.
func (s *Server) exploreInput(r *http.Request) {
	if s.mutated(ExploreTextPlainCrash) && (r.Method == http.MethodPost || r.Method == http.MethodPut) &&
		strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "text/plain") {
		panic(explorePanic("text/plain body"))
	}
}

// exploreWrite applies the page-write mutants to p, a create's or edit's
// page after its fields were applied (old: the page before an edit, nil
// on create). The caller holds the lock.
func (s *view) exploreWrite(old, p *page, in *input) {
	if tags, _, _ := in.str("tags"); s.mutated(ExploreTagAmpersandCrash) && strings.Contains(tags, "&") {
		panic(explorePanic("ampersand in a tag"))
	}
	if s.mutated(ExploreCategoryDroppedTags) && old == nil && len(p.tags) > 3 {
		p.category = ""
	}
	if s.mutated(ExploreEditTypeAndDate500) && old != nil && in.has("type") && in.has("date") &&
		p.date != old.date && p.date < s.now().In(s.location()).Format(dateLayout) {
		panic(explorePanic("type and date"))
	}
	if s.mutated(ExploreDescriptionCut) && utf8.RuneCountInString(p.description) > 80 {
		p.description = string([]rune(p.description)[:80])
	}
	if s.mutated(ExploreFormQuoteTwice) && in.form && in.has("title") && strings.Contains(p.title, "&quot;") {
		p.title = sanitise(p.title)
	}
	if s.mutated(ExploreLongContentCut) && utf8.RuneCountInString(p.content) > longContentLimit {
		p.content = string([]rune(p.content)[:longContentLimit])
	}
	if i := strings.IndexFunc(p.description, isControl); s.mutated(ExploreControlCharCut) && in.has("description") && i >= 0 {
		p.description = p.description[:i]
	}
	if tags, _, _ := in.str("tags"); s.mutated(ExploreBlankTagSegment) && blankSegment(tags) {
		p.tags = append(slices.Clone(p.tags), "untitled")
		p.tagNames = maps.Clone(p.tagNames)
		if p.tagNames == nil {
			p.tagNames = map[string]string{}
		}
		p.tagNames["untitled"] = ""
	}
	if s.mutated(ExploreNegativePosition500) && in.has("position") && p.position < 0 {
		panic(explorePanic("negative position"))
	}
}

// isControl reports an ASCII control character other than line feed and
// carriage return.
func isControl(r rune) bool { return (r < 0x20 && r != '\n' && r != '\r') || r == 0x7f }

// blankSegment reports comma-separated tags with an empty or blank
// segment ("" alone is no tags at all).
func blankSegment(tags string) bool {
	if !strings.Contains(tags, ",") {
		return false
	}
	return slices.ContainsFunc(strings.Split(tags, ","), func(seg string) bool { return strings.TrimSpace(seg) == "" })
}

// exploreRefusedCreate makes the page of a create refused for its
// malformed date all the same, without the date (the bad-date mutant):
// the refusal is answered as it was. The caller holds the lock.
func (s *view) exploreRefusedCreate(r *http.Request, in *input, author string) {
	if d, _, _ := in.str("date"); !s.mutated(ExploreBadDateCreatedAnyway) || strings.TrimSpace(d) == "" {
		return
	} else if _, err := time.Parse(dateLayout, strings.TrimSpace(d)); err == nil {
		return
	}
	_ = s.createPageH(r, route{}, without(in, "date"), author)
}

// exploreList answers the page-list mutants, nil when none applies.
func (s *Server) exploreList(in *input) *response {
	n, ok := in.integer("numberOfItems")
	if s.mutated(ExploreUntaggedSizeOne500) && ok && n == 1 && in.flag("untagged", false) {
		panic(explorePanic("untagged with a page size of 1"))
	}
	if s.mutated(ExploreBigPageSize400) && ok && n > 100 {
		r := failure(http.StatusBadRequest, "numberOfItems is too large.")
		return &r
	}
	return nil
}

// exploreRefused applies what the refused-edit mutant lets through of a
// write refused for its authentication token. The caller holds the lock.
func (s *view) exploreRefused(rt route, in *input) {
	if !s.mutated(ExploreRefusedEditAppliesTags) || rt.endpoint != "pages" || rt.method != http.MethodPut || !in.has("tags") {
		return
	}
	p := s.pages[rt.key]
	if p == nil {
		return
	}
	tagsOnly := &input{vals: map[string]any{"tags": in.vals["tags"]}, form: in.form}
	q := p.clone()
	if ch, err := s.applyFields(q, tagsOnly, false); err == "" {
		s.pages[rt.key] = q
		s.reindexTags(ch)
	}
}

// exploreTermMissing is the message of a missing tag or category.
func (s *Server) exploreTermMissing(rt route, in *input, msg string) string {
	if s.mutated(ExploreMissingTagEchoesToken) && rt.endpoint == "tags" && strings.ContainsFunc(rt.key, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		return fmt.Sprintf("%s (token %s)", msg, in.token("token"))
	}
	return msg
}

// exploreFilesKey reports whether the encoded-dots mutant lets a files
// key through: its ".." is there only once decoded.
func (s *Server) exploreFilesKey(rt route) bool {
	return s.mutated(ExploreFilesEncodedDots) && !hasTraversal(rt.rawKey) && strings.Contains(strings.ToLower(rt.rawKey), "%2e")
}
