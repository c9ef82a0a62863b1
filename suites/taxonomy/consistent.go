package taxonomy

import (
	"context"
	"fmt"
	"net/http"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// consistency is what TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT judges:
// the pages each term of the sample names, in the list endpoint or in its
// single view, and each of them as GET /api/pages/{key} gave it.
type consistency struct {
	terms
	named [][]string // per term of the sample, the page keys judged
	// cut is, per term whose pages were more than maxPagesPerTerm, how
	// many it named.
	cut   []int
	pages map[string]*client.Exchange
}

// prepareListConsistent reads every term's single view and, beside them,
// the pages the list endpoint names (read whatever the single views say);
// then the pages only a single view names, if any.
func (s *shared) prepareListConsistent(ctx context.Context) consistency {
	ts := s.ensure(ctx, true)
	v := consistency{terms: ts, pages: map[string]*client.Exchange{}}
	if ts.reason != "" {
		return v
	}
	keys := make([]string, len(ts.sample))
	var early []string
	for i, tm := range ts.sample {
		keys[i] = tm.key
		early = append(early, capped(framework.Uniq(tm.list))...)
	}
	early = framework.Uniq(early)
	exs := s.t.All(ctx, append(keyReads(s.k.endpoint, keys), keyReads("pages", early)...)...)
	views := exs[:len(keys)]
	for i, key := range early {
		v.pages[key] = exs[len(keys)+i]
	}
	var late []string
	for i, ex := range views {
		named := append([]string(nil), ts.sample[i].list...)
		if ex.Err == nil && ex.Status == http.StatusOK {
			named = append(named, strs(ex.Get("data.list"))...)
		}
		named = framework.Uniq(named)
		if len(named) > maxPagesPerTerm {
			v.cut = append(v.cut, len(named))
		}
		named = capped(named)
		v.named = append(v.named, named)
		for _, key := range named {
			if v.pages[key] == nil {
				late = append(late, key)
			}
		}
	}
	late = framework.Uniq(late)
	for i, ex := range readAll(ctx, s.t, "pages", late) {
		v.pages[late[i]] = ex
	}
	return v
}

// capped is the first maxPagesPerTerm of keys.
func capped(keys []string) []string { return keys[:min(len(keys), maxPagesPerTerm)] }

// judgeListConsistent: TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT. Every
// page a term names, in the list endpoint or in its single view, read with
// GET /api/pages/{key}, must carry the term.
func (s *shared) judgeListConsistent(_ ginkgo.SpecContext, v consistency) {
	k := s.k
	if v.reason != "" {
		framework.NotChecked("%s", v.reason)
	}
	for _, n := range v.cut {
		s.t.Observe("%s-LIST-CONSISTENT read the first %d of the %d pages some %s names", k.rule, maxPagesPerTerm, n, k.noun)
	}
	var problems []string
	var evidence *client.Exchange
	checked := 0
	for i, tm := range v.sample {
		for _, key := range v.named[i] {
			ex := v.pages[key]
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
