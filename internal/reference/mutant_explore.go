package reference

import (
	"fmt"
	"net/http"
	"strings"
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
)

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
	onGenerated(ExploreBigPageSize400, "PAGE-LIST-SHAPE", "GET /api/pages with numberOfItems above 100 is refused with 400."),
	onGenerated(ExploreDescriptionCut, "PAGE-CREATE-FIELDS PAGE-EDIT-PARTIAL", "A description longer than 80 characters is stored cut to its first 80."),
	onGenerated(ExploreFormQuoteTwice, "GEN-FORM-SANITISED-ONCE PAGE-TITLE-ENCODED", "A form-encoded title holding a double quote is HTML-encoded twice."),
	onGenerated(ExploreRefusedEditAppliesTags, "AUTH-REFUSED-WRITE-NO-EFFECT", "An edit refused for lack of a valid authentication token (401) still applies the tags it sends."),
	onGenerated(ExploreMissingTagEchoesToken, "AUTH-NO-TOKEN-IN-ANSWER", "GET of a missing tag whose key holds a character other than a-z, 0-9 and - answers 404 with the request's API token in its message."),
	onGenerated(ExploreFilesEncodedDots, "FILES-TRAVERSAL-400", "GET /api/files/{key} with .. percent-encoded (%2e%2e) is not refused (200 with an empty list)."),
	onGenerated(ExploreTextPlainCrash, "GEN-NO-CRASH", "A POST or PUT whose Content-Type is text/plain crashes (500) before any token is read."),
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
