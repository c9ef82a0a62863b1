package taxonomy

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// completeness is what TAG-LIST-COMPLETE / CAT-LIST-COMPLETE judges: the
// published pages, the terms they carry, the list endpoint and the single
// views of the sample's terms that published pages carry.
type completeness struct {
	reason    string // the published pages could not be listed
	all       int    // published pages listed
	pagesEx   *client.Exchange
	carriers  map[string][]string // term key -> keys of the published pages carrying it
	termKeys  []string            // sorted
	listEx    *client.Exchange
	singleKey []string // the terms whose single view was read
	singles   []*client.Exchange
}

// prepareListComplete takes the published pages of the listing of every
// page type (read once for the run), then the list endpoint and the
// single views of the sample's terms (those the other single-view rules
// read) that published pages carry.
func (s *shared) prepareListComplete(ctx context.Context) completeness {
	k := s.k
	listed := s.everyPage(ctx)
	if listed.Problem != "" {
		return completeness{reason: listed.Problem}
	}
	v := completeness{pagesEx: listed.Ex, carriers: map[string][]string{}}
	for _, p := range listed.Pages.Scan {
		if p.Get("type").String() != "published" {
			continue
		}
		v.all++
		// Strings of their own: the page is borrowed (Scan), and assigning
		// to a map stores the key given, even over an equal one.
		key := strings.Clone(p.Get("key").String())
		for _, term := range k.carried(p) {
			term = strings.Clone(term)
			v.carriers[term] = append(v.carriers[term], key)
		}
	}
	if len(v.carriers) == 0 {
		return v
	}
	v.termKeys = slices.Sorted(maps.Keys(v.carriers))
	v.listEx = s.listed(ctx).ex
	var carried []term
	for _, tm := range s.ensure(ctx, false).sample {
		if len(v.carriers[tm.key]) > 0 {
			v.singleKey = append(v.singleKey, tm.key)
			carried = append(carried, tm)
		}
	}
	v.singles = s.readTerms(ctx, carried)
	return v
}

// judgeListComplete: TAG-LIST-COMPLETE / CAT-LIST-COMPLETE (spec 2.2,
// 2.3), the converse of LIST-CONSISTENT: every published page that carries
// a term is named by the term's list, in the list endpoint (every term) and
// in the single view (up to maxTerms terms). Whether drafts, scheduled,
// static or sticky pages are listed is open: they are neither required nor
// refused.
func (s *shared) judgeListComplete(_ ginkgo.SpecContext, v completeness) {
	t, k := s.t, s.k
	if v.reason != "" {
		verdicts.NotChecked("the published pages could not be listed to compare with: %s (the page list rules judge that)", v.reason)
	}
	if len(v.carriers) == 0 {
		verdicts.NotChecked("none of the %d published pages carries a %s (%s), so no %s list could miss one",
			v.all, k.noun, v.pagesEx.RequestLine(), k.noun)
	}
	listEx := v.listEx
	t.Judged(listEx) // read once for the group
	if listEx.Err != nil || listEx.Status != http.StatusOK || !listEx.Get("data").IsArray() {
		verdicts.NotChecked("GET /api/%s did not give a list to compare with (%s; see %s)", k.endpoint, match.Outcome(listEx), k.ids.listShape)
	}
	Expect(listEx).To(match.Holds(fmt.Sprintf("each %s's list names every published page that carries it (%d %s carried by published pages)",
		k.noun, len(v.termKeys), k.endpoint), func(ex *client.Exchange) []string {
		listed := map[string][]string{}
		for _, item := range ex.Get("data").Array() {
			listed[item.Get("key").String()] = strs(item.Get("list"))
		}
		var missing []string
		for _, term := range v.termKeys {
			if list, ok := listed[term]; ok {
				missing = append(missing, lacking(k, term, list, v.carriers[term])...)
			}
		}
		return missing
	}))

	t.Judged(v.pagesEx)    // read once for the run
	t.Judged(v.singles...) // read once for the group
	if len(v.singleKey) < len(v.termKeys) {
		t.Observe("%s read the single view of %d of the %d %s that published pages carry", k.ids.listComplete, len(v.singleKey), len(v.termKeys), k.endpoint)
	}
	for i, ex := range v.singles {
		term := v.singleKey[i]
		if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data.list").IsArray() {
			// A term a page carries that cannot be read, or a single view
			// without list: the GET-SHAPE and 404 rules judge those.
			t.Observe("%s: published page %q carries %s %q, whose single view gave no list (%s)",
				k.ids.listComplete, v.carriers[term][0], k.noun, term, match.Outcome(ex))
			continue
		}
		Expect(ex).To(match.Holds(fmt.Sprintf("the single %s's list names every published page that carries it", k.noun),
			func(ex *client.Exchange) []string {
				return lacking(k, term, strs(ex.Get("data.list")), v.carriers[term])
			}))
	}
}

// lacking lists the pages of carriers that list does not name.
func lacking(k kind, term string, list, carriers []string) []string {
	var out []string
	for _, key := range carriers {
		if !slices.Contains(list, key) {
			out = append(out, fmt.Sprintf("%s %q: list lacks published page %q, which carries it", k.noun, term, key))
		}
	}
	return out
}

// tagsOf returns the tag keys a page object carries (its tags object's
// keys; none when tags is no object: PAGE-TAGS-MAP judges that).
func tagsOf(page gjson.Result) []string {
	if tags := page.Get("tags"); tags.IsObject() {
		return slices.Sorted(maps.Keys(tags.Map()))
	}
	return nil
}

// categoryOf returns the category key a page object carries (none when
// category is empty or not a string).
func categoryOf(page gjson.Result) []string {
	if c := page.Get("category"); c.Type == gjson.String && c.Str != "" {
		return []string{c.Str}
	}
	return nil
}
