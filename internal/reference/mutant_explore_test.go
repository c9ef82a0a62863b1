package reference

import "strings"

// Probes of the mutants only generated input reveals, for
// TestEveryMutantChangesTheResponse (each probe is the smallest case
// conformance explore shrinks the mutant's finding to).
func init() {
	for m, p := range map[Mutant]struct {
		probe []req
		what  string
	}{
		ExploreTagAmpersandCrash:   {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "tags": "a&b"})}, "500 instead of 201"},
		ExploreCategoryDroppedTags: {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "tags": "a,b,c,d", "category": "general"})}, "category empty"},
		ExploreEditTypeAndDate500:  {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "draft", "date": "2005-05-05 05:05:05"})}, "500 instead of 200"},
		ExploreUntaggedSizeOne500:  {[]req{g("/api/pages", "untagged", "true", "numberOfItems", "1")}, "500 instead of 200"},
		ExploreBigPageSize400:      {[]req{g("/api/pages", "numberOfItems", "101")}, "400 instead of 200"},
		ExploreDescriptionCut: {[]req{js("POST", "/api/pages", map[string]any{"title": "a",
			"description": "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"})}, "description cut at 80"},
		ExploreFormQuoteTwice:         {[]req{fm("POST", "/api/pages", "title", `"`)}, "title &amp;quot;"},
		ExploreRefusedEditAppliesTags: {[]req{noAuth(js("PUT", "/api/pages/alpha-post", map[string]any{"tags": "z"}))}, "tags applied"},
		ExploreMissingTagEchoesToken:  {[]req{g("/api/tags/a_b")}, "token in the message"},
		ExploreFilesEncodedDots:       {[]req{g("/api/files/%2e%2e")}, "200 instead of 400"},
		ExploreTextPlainCrash:         {[]req{{method: "POST", path: "/api/pages", raw: "{}", contentType: "text/plain"}}, "500 instead of 400"},
		ExploreLongContentCut: {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "content": strings.Repeat("a", 10_001)})},
			"content cut to 10,000"},
		ExploreControlCharCut:      {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "description": "a\x01b"})}, "description a"},
		ExploreBlankTagSegment:     {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "tags": ",a"})}, "a tag with an empty name"},
		ExploreNegativePosition500: {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "position": -1})}, "500 instead of 201"},
		ExploreBadDateCreatedAnyway: {[]req{js("POST", "/api/pages", map[string]any{"title": "a", "date": "yesterday"}), g("/api/pages/a")},
			"the page made after the 400"},
		BenignMissingParentAccepted: {[]req{js("POST", "/api/pages", map[string]any{"title": "o", "parent": "no-such-parent"})},
			"201 at no-such-parent/o instead of 400"},
	} {
		mutantProbes[m] = p
	}
}
