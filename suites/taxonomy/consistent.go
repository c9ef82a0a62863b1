package taxonomy

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// consistency is what TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT judges:
// the pages each term of the sample names, in the list endpoint or in its
// single view, and each of them as the listing of every page type shows
// it, or as GET /api/pages/{key} gave it where that listing lacks it.
type consistency struct {
	terms
	named [][]string // per term of the sample, the page keys judged
	// index is where each page named stands in the listing of every type
	// (read from it when judged: the listing of a big site is on disk);
	// read, the pages named but not listed, read one by one.
	index   map[string]int
	read    map[string]*client.Exchange
	views   []*client.Exchange // the sample's single views
	listing pagelist.Listing
	// cut is, per term that named more pages the listing lacks than
	// maxPagesPerTerm, how many it named so.
	cut []int
}

// prepareListConsistent reads every term's single view beside the listing
// of every page (shared with the other rules of the run), then reads one
// by one the pages a term names that the listing lacks (up to
// maxPagesPerTerm per term): a page a term names is usually listed, so
// the listing the run reads anyway answers for nearly all of them.
func (s *shared) prepareListConsistent(ctx context.Context) consistency {
	ts := s.ensure(ctx, true)
	v := consistency{terms: ts, index: map[string]int{}, read: map[string]*client.Exchange{}}
	if ts.reason != "" {
		return v
	}
	views := s.readTerms(ctx, ts.sample)
	v.views = views
	v.listing = s.everyPage(ctx)
	var all [][]string
	wanted := map[string]bool{}
	for i, ex := range views {
		named := append([]string(nil), ts.sample[i].list...)
		if ex.Err == nil && ex.Status == http.StatusOK {
			named = append(named, strs(ex.Get("data.list"))...)
		}
		named = match.Uniq(named)
		all = append(all, named)
		for _, key := range named {
			wanted[key] = true
		}
	}
	// Only where the pages named stand is kept of the listing (the key a
	// string of its own: a part of the page's text would keep all of it).
	for i, p := range v.listing.Pages.Scan {
		if key := p.Get("key").String(); wanted[key] {
			v.index[strings.Clone(key)] = i
		}
	}
	var unlisted []string
	for _, named := range all {
		var missing []string
		for _, key := range named {
			if _, ok := v.index[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > maxPagesPerTerm {
			v.cut = append(v.cut, len(missing))
			drop := map[string]bool{}
			for _, key := range missing[maxPagesPerTerm:] {
				drop[key] = true
			}
			kept := named[:0]
			for _, key := range named {
				if !drop[key] {
					kept = append(kept, key)
				}
			}
			named, missing = kept, missing[:maxPagesPerTerm]
		}
		v.named = append(v.named, named)
		unlisted = append(unlisted, missing...)
	}
	unlisted = match.Uniq(unlisted)
	for i, ex := range readAll(ctx, s.t, "pages", unlisted) {
		v.read[unlisted[i]] = ex
	}
	return v
}

// judgeListConsistent: TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT. Every
// page a term names, in the list endpoint or in its single view, must
// carry the term: as the listing of every page type shows the page, or,
// for a page that listing lacks, as GET /api/pages/{key} gives it.
func (s *shared) judgeListConsistent(_ ginkgo.SpecContext, v consistency) {
	k := s.k
	if v.reason != "" {
		verdicts.NotChecked("%s", v.reason)
	}
	s.t.Judged(v.listing.Ex) // read once for the run
	s.t.Judged(v.views...)   // read once for the group
	for _, n := range v.cut {
		s.t.Observe("%s read the first %d of the %d pages some %s names that the listing of every page lacks", k.ids.listConsistent, maxPagesPerTerm, n, k.noun)
	}
	// Problems by the answer that shows them: the listing, or a page's
	// own read; each about the page's field that carries the term.
	byAnswer := map[*client.Exchange][]match.FieldProblem{}
	var order []*client.Exchange
	checked := 0
	for i, tm := range v.sample {
		for _, key := range v.named[i] {
			checked++
			at, listed := v.index[key]
			ex, field := v.listing.Ex, fmt.Sprintf("data[%d].%s", at, k.field)
			var page gjson.Result
			if listed {
				page = v.listing.Pages.At(at)
			}
			problem := ""
			if !listed {
				ex, field = v.read[key], "data."+k.field
				page = ex.Get("data")
				if ex.Err != nil || ex.Status != http.StatusOK || !page.IsObject() {
					problem = fmt.Sprintf("%s %q names page %q, which the listing of every page type lacks and GET /api/pages/{key} did not return (%s)",
						k.noun, tm.key, key, match.Outcome(ex))
					field = ""
				}
			}
			want, kindGot := "", ""
			if problem == "" {
				if uses, got := k.uses(page, tm.key); !uses {
					problem = fmt.Sprintf("%s %q names page %q, but the page does not carry it: %s", k.noun, tm.key, key, got)
					if v := page.Get(k.field); verdict.KindOf(v) != k.want {
						want, kindGot = k.want, verdict.KindOf(v)
					}
				}
			}
			if problem == "" {
				continue
			}
			if _, seen := byAnswer[ex]; !seen {
				order = append(order, ex)
			}
			byAnswer[ex] = append(byAnswer[ex], match.FieldProblem{Field: field, Problem: problem, Want: want, Got: kindGot})
		}
	}
	if checked == 0 {
		verdicts.NotChecked("no %s the target lists names any page", k.noun)
	}
	// Asserted even when nothing was found wrong: the pages were looked
	// at, so the rule judged real data (an assertion that could have
	// failed ran).
	expect := fmt.Sprintf("every page a %s names carries it (%d pages looked at)", k.noun, checked)
	if len(order) == 0 {
		order = append(order, v.listing.Ex)
	}
	for _, ex := range order {
		problems := byAnswer[ex]
		Expect(ex).To(match.HoldsFields(expect, func(*client.Exchange) []match.FieldProblem { return problems }))
	}
}
