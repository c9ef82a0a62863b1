package taxonomy

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// checkListShape: TAG-LIST-SHAPE / CAT-LIST-SHAPE (spec 2.2, 2.3, 4.6, 4.7).
// An empty list shows the envelope only, not the shape of an item: the run
// then creates a term when it may (ensureTerms), or the rule is reported
// not checked rather than passed.
func checkListShape(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	check := func() int {
		ex := t.Read(ctx, "/api/"+k.endpoint, nil)
		Expect(ex).To(framework.BeSuccess(http.StatusOK))
		Expect(ex).To(framework.MatchSchema(k.listSchema))
		// 4.6 and 4.7: list items come "without pages" (only the single
		// view expands them).
		Expect(ex).To(framework.Hold("list items carry no pages (spec "+k.section+": the list comes without pages)", itemsWithPages))
		return len(ex.Get("data").Array())
	}
	if check() == 0 {
		ensureTerms(ctx, t, k, false) // not checked when no term can be made
		check()
	}
}

// checkListEntries: the LIST-SHAPE case for the entries of the items'
// lists (page keys, strings), which only a list naming a page shows: when
// none does, ensureTerms may create a draft with a term, or the case is not
// checked.
func checkListEntries(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	ensureTerms(ctx, t, k, true)
	ex := t.Read(ctx, "/api/"+k.endpoint, nil)
	Expect(ex).To(framework.BeSuccess(http.StatusOK))
	Expect(ex).To(framework.MatchSchema(k.listSchema))
	entries := 0
	for _, item := range ex.Get("data").Array() {
		entries += len(item.Get("list").Array())
	}
	if entries == 0 {
		framework.NotChecked("no %s list named a page when read again, so no list entry could be judged", k.noun)
	}
}

// checkGetPages: the GET-SHAPE case for the items of a single view's pages
// (full page objects), judged on the terms whose list names pages; not
// checked when no single view holds a page.
func checkGetPages(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	var named []term
	for _, tm := range ensureTerms(ctx, t, k, true) {
		if len(tm.list) > 0 {
			named = append(named, tm)
		}
	}
	judged := 0
	for i, ex := range readTerms(ctx, t, k, named) {
		tm := named[i]
		Expect(ex).To(framework.BeSuccess(http.StatusOK), "%s %q is named by GET /api/%s", k.noun, tm.key, k.endpoint)
		Expect(ex).To(framework.MatchSchema(k.getSchema))
		judged += len(ex.Get("data.pages").Array())
	}
	if judged == 0 {
		framework.NotChecked("no single %s view held a page, so no item of pages could be judged as a page object (see %s-PAGES-MATCH-LIST)", k.noun, k.rule)
	}
}

// checkGetShape: TAG-GET-SHAPE / CAT-GET-SHAPE.
func checkGetShape(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	terms := ensureTerms(ctx, t, k, false)
	for i, ex := range readTerms(ctx, t, k, terms) {
		tm := terms[i]
		Expect(ex).To(framework.BeSuccess(http.StatusOK), "%s %q is named by GET /api/%s", k.noun, tm.key, k.endpoint)
		Expect(ex).To(framework.MatchSchema(k.getSchema))
		Expect(ex).To(framework.HaveJSON("data.key", Equal(tm.key)), "data.key must be the %s asked for", k.noun)
	}
}

// checkPagesMatchList: TAG-PAGES-MATCH-LIST / CAT-PAGES-MATCH-LIST. The
// single view's pages, as a multiset of keys, equal its list (order is not
// asserted: see the rule's Reading).
func checkPagesMatchList(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	compared, named := 0, 0
	terms := ensureTerms(ctx, t, k, true)
	for i, ex := range readTerms(ctx, t, k, terms) {
		tm := terms[i]
		if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
			continue // judged by the GET-SHAPE rule
		}
		list, source := ex.Get("data.list"), "its list"
		var listKeys []string
		if list.IsArray() {
			listKeys = strs(list)
		} else {
			// A single view without list breaks GET-SHAPE; compare with
			// the list the list endpoint gave, so this rule is still judged.
			listKeys, source = tm.list, fmt.Sprintf("its list in GET /api/%s (the single view has no list)", k.endpoint)
		}
		Expect(ex).To(framework.HaveJSON("data.pages", framework.BeJSONArray()), "data.pages must be an array of page objects")
		Expect(ex).To(framework.Hold(fmt.Sprintf("the keys of data.pages are exactly the page keys %s names", source),
			func(ex *client.Exchange) []string { return multisetDiff(listKeys, pageKeysOf(ex)) }), "%s %q", k.noun, tm.key)
		compared++
		named += len(listKeys) + len(pageKeysOf(ex))
	}
	if compared == 0 {
		framework.NotChecked("no %s could be read with GET /api/%s/{key} (see %s-GET-SHAPE)", k.noun, k.endpoint, k.rule)
	}
	if named == 0 {
		framework.NotChecked("no %s the target lists names any page, so there is nothing to compare", k.noun)
	}
}

// checkListConsistent: TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT. Every
// page a term names, in the list endpoint or in its single view, is read
// with GET /api/pages/{key} and must carry the term.
func checkListConsistent(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	pagesRead := map[string]*client.Exchange{}
	var problems []string
	var evidence *client.Exchange
	checked := 0
	// First every term's single view, then every page they name (each
	// once), each batch side by side; then judged term by term.
	terms := ensureTerms(ctx, t, k, true)
	named := make([][]string, len(terms))
	var toRead []string
	for i, ex := range readTerms(ctx, t, k, terms) {
		keys := append([]string(nil), terms[i].list...)
		if ex.Err == nil && ex.Status == http.StatusOK {
			keys = append(keys, strs(ex.Get("data.list"))...)
		}
		keys = framework.Uniq(keys)
		if len(keys) > maxPagesPerTerm {
			t.Observe("%s-LIST-CONSISTENT read the first %d of the %d pages some %s names", k.rule, maxPagesPerTerm, len(keys), k.noun)
			keys = keys[:maxPagesPerTerm]
		}
		named[i] = keys
		toRead = append(toRead, keys...)
	}
	toRead = framework.Uniq(toRead)
	for i, ex := range readAll(ctx, t, "pages", toRead) {
		pagesRead[toRead[i]] = ex
	}
	for i, tm := range terms {
		for _, key := range named[i] {
			ex := pagesRead[key]
			checked++
			problem := ""
			if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
				problem = fmt.Sprintf("%s %q names page %q, but GET /api/pages/{key} did not return it (%s)", k.noun, tm.key, key, framework.Outcome(ex))
			} else if uses, got := k.uses(ex.Get("data"), tm.key); !uses {
				problem = fmt.Sprintf("%s %q names page %q, but the page does not carry it: %s", k.noun, tm.key, key, got)
			}
			if problem != "" {
				problems = append(problems, problem)
				if evidence == nil {
					evidence = ex
				}
			}
		}
	}
	if checked == 0 {
		framework.NotChecked("no %s the target lists names any page", k.noun)
	}
	// Asserted even when nothing was found wrong: the pages were read, so
	// the rule judged real data (an assertion that could have failed ran).
	Expect(problems).To(BeEmpty(), framework.Evidence(evidence,
		"every page a %s names must carry it (%d pages read); the first offending read:", k.noun, checked))
}

// itemsWithPages lists the items of a term list that carry pages.
func itemsWithPages(ex *client.Exchange) []string {
	var withPages []string
	for i, item := range ex.Get("data").Array() {
		if item.Get("pages").Exists() {
			withPages = append(withPages, fmt.Sprintf("data[%d] (key %s) carries pages", i, framework.Show(item.Get("key"))))
		}
	}
	return withPages
}

// pageKeysOf returns the key of each page object in data.pages of a term's
// single view ("" for a page without one).
func pageKeysOf(ex *client.Exchange) []string {
	var keys []string
	for _, p := range ex.Get("data.pages").Array() {
		keys = append(keys, p.Get("key").String())
	}
	return keys
}

// multisetDiff says how got differs from want, as multisets.
func multisetDiff(want, got []string) []string {
	left := map[string]int{}
	for _, k := range want {
		left[k]++
	}
	var problems []string
	for _, k := range got {
		if left[k] > 0 {
			left[k]--
			continue
		}
		problems = append(problems, fmt.Sprintf("data.pages holds page %q, which the list does not name (that often)", k))
	}
	for _, k := range want {
		if left[k] > 0 {
			left[k]--
			problems = append(problems, fmt.Sprintf("data.pages lacks page %q, which the list names", k))
		}
	}
	return problems
}

// checkGet404: TAG-GET-404 / CAT-GET-404.
func checkGet404(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) {
	ex := t.Read(ctx, client.KeyPath(k.endpoint, t.Marker("no-such-"+k.noun)), nil)
	Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
}

// term is one tag or category as the list endpoint gives it.
type term struct {
	key  string
	list []string // page keys
}

// readTerms reads the single view of each of terms side by side
// (Fixture.All) and returns the answers in the order of terms.
func readTerms(ctx ginkgo.SpecContext, t *framework.Fixture, k kind, terms []term) []*client.Exchange {
	keys := make([]string, len(terms))
	for i, tm := range terms {
		keys[i] = tm.key
	}
	return readAll(ctx, t, k.endpoint, keys)
}

// readAll sends GET /api/<endpoint>/<key> for each of keys side by side
// (Fixture.All) and returns the answers in the order of keys. The reads are
// independent; the caller judges each in its own goroutine.
func readAll(ctx ginkgo.SpecContext, t *framework.Fixture, endpoint string, keys []string) []*client.Exchange {
	reqs := make([]client.Request, len(keys))
	for i, key := range keys {
		reqs[i] = client.Request{Method: http.MethodGet, Path: client.KeyPath(endpoint, key)}
	}
	return t.All(ctx, reqs...)
}

// listTerms reads the list endpoint; a list that cannot be read stops the
// spec as not checked (the LIST-SHAPE rule judges that response).
func listTerms(ctx ginkgo.SpecContext, t *framework.Fixture, k kind) []term {
	ex := t.Read(ctx, "/api/"+k.endpoint, nil)
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsArray() {
		framework.NotChecked("GET /api/%s did not give a list to start from (%s; see %s-LIST-SHAPE)", k.endpoint, framework.Outcome(ex), k.rule)
	}
	var out []term
	for _, item := range ex.Get("data").Array() {
		key := item.Get("key")
		if key.Type != gjson.String || key.Str == "" {
			continue
		}
		out = append(out, term{key: key.Str, list: strs(item.Get("list"))})
	}
	return out
}

// ensureTerms returns the sample of terms a spec checks. When the target
// has none (or, with needPages, none that names a page) and the run may
// write, it creates a draft page with a tag of the run's own, or in an
// existing category, and looks again. The spec does not say whether a
// draft is listed under its terms (the previous release listed only
// published, static and sticky pages), so when the draft does not show,
// the rule is reported as not checked rather than failed.
func ensureTerms(ctx ginkgo.SpecContext, t *framework.Fixture, k kind, needPages bool) []term {
	terms := listTerms(ctx, t, k)
	if usable(terms, needPages) {
		return sample(terms)
	}
	what := "no " + k.noun
	if len(terms) > 0 {
		what = fmt.Sprintf("no %s that names a page", k.noun)
	}
	// This read rule writes only in this fallback, and only when writes are
	// allowed: read-only runs still check whatever the target has.
	if !t.CanWrite() {
		framework.NotChecked("the target lists %s, and a read-only run cannot create one", what)
	}
	fields := map[string]any{"title": "Conformance taxonomy " + t.RunID}
	var made string
	if k.endpoint == "tags" {
		made = t.Marker("tag")
		fields["tags"] = made
	} else {
		if len(terms) == 0 {
			framework.NotChecked("the target lists no category, and the API cannot create one")
		}
		made = terms[0].key
		fields["category"] = made
	}
	ex, key := t.CreatePage(ctx, fields)
	if key == "" {
		framework.NotChecked("the target lists %s, and creating a draft page with %s %q failed (%s)", what, k.noun, made, framework.Outcome(ex))
	}
	terms = listTerms(ctx, t, k)
	if !usable(terms, needPages) {
		framework.NotChecked("the target lists %s; a draft page the run created with %s %q did not change that "+
			"(the spec does not say whether drafts are listed)", what, k.noun, made)
	}
	return sample(terms)
}

func usable(terms []term, needPages bool) bool {
	if !needPages {
		return len(terms) > 0
	}
	for _, tm := range terms {
		if len(tm.list) > 0 {
			return true
		}
	}
	return false
}

// sample keeps at most maxTerms terms, those naming pages first.
func sample(terms []term) []term {
	out := append([]term(nil), terms...)
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].list) > 0 && len(out[j].list) == 0 })
	if len(out) > maxTerms {
		out = out[:maxTerms]
	}
	return out
}

// strs returns the string items of a JSON array (nil for anything else).
func strs(r gjson.Result) []string {
	if !r.IsArray() {
		return nil
	}
	var out []string
	for _, v := range r.Array() {
		if v.Type == gjson.String {
			out = append(out, v.Str)
		}
	}
	return out
}
