package sitemodel

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// The rules the model judges (their Readings say so).
const (
	RuleViewsAgree  = "PAGE-VIEWS-AGREE"
	RuleDeleteGone  = "PAGE-DELETE-GONE"
	RuleKeyChange   = "PAGE-EDIT-KEY-CHANGE"
	RuleGetOK       = "PAGE-GET-OK"
	RuleTypeFilters = "PAGE-LIST-TYPE-FILTERS"
)

// Rules lists every rule the model judges.
func Rules() []string {
	return []string{RuleViewsAgree, RuleDeleteGone, RuleKeyChange, RuleGetOK, RuleTypeFilters,
		tagKind.complete, tagKind.consistent, catKind.complete, catKind.consistent}
}

// Finding is one answer that disagrees with what the run's writes must
// have left.
type Finding struct {
	Rule    string
	Ex      *client.Exchange
	Problem string
}

// Verdicts are the model's findings, and how many judgements each rule
// made (a rule with none is not checked).
type Verdicts struct {
	Findings []Finding
	Judged   map[string]int
	// Stopped says why the model stopped judging before the run's last
	// answer ("" when it judged to the end).
	Stopped string
}

// Judge replays the answers of a run in the order they were sent and
// judges each read against what the writes before it left. A read that
// was on its way while a write was is not judged (the run sends a write
// alone, so only a write without an answer leaves one), and nothing after
// a create without an answer from the API is (it may land at any time, on
// any key).
func Judge(seen []Seen) Verdicts {
	seen = slices.Clone(seen)
	sort.SliceStable(seen, func(i, j int) bool { return seen[i].From.Before(seen[j].From) })
	m := &model{pages: map[string]*facts{}, v: Verdicts{Judged: map[string]int{}}}
	for i := range seen {
		s := &seen[i]
		if s.write != nil {
			if m.v.Stopped = m.apply(s); m.v.Stopped != "" {
				break
			}
			continue
		}
		if m.overlapsWrite(seen, i) {
			continue
		}
		m.judgeRead(s)
	}
	return m.v
}

// overlapsWrite reports whether a write was on its way while seen[i] was.
func (m *model) overlapsWrite(seen []Seen, i int) bool {
	for j := range seen {
		w := &seen[j]
		if w.write != nil && w.From.Before(seen[i].To) && seen[i].From.Before(w.To) {
			return true
		}
	}
	return false
}

// model is the site as the writes replayed so far left it: the facts of
// each page of the run it has seen.
type model struct {
	pages map[string]*facts
	v     Verdicts
	// fieldsUnsure: a write that may change what pages show got no
	// answer; no field is compared from then on.
	fieldsUnsure bool
}

// state of a key of the run.
type state int

const (
	unknown state = iota
	live          // created or renamed to, and not deleted or renamed away since
	gone          // deleted or renamed away
)

// facts are what the model holds of one key.
type facts struct {
	state state
	// goneRule and goneBy say which write made the key gone, for the
	// findings of a view that still shows it.
	goneRule, goneBy string
	// fields are the page's values as the first answer after its last
	// write that showed each gave them (none: none seen since).
	fields map[string]learned
	// between are the writes of other pages (or refused writes of this
	// one) since fields were learned, for the findings' words.
	between []string
	// timePublished: it turned from scheduled to published without a
	// write; the host adds it to its tags' and category's lists only at
	// the next write, and the spec does not say when (3).
	timePublished bool
	// uncertain: a write of it got no answer from the API, or failed
	// (5xx), and may act at any time: nothing of it is judged.
	uncertain bool
}

func (m *model) of(key string) *facts {
	f := m.pages[key]
	if f == nil {
		f = &facts{}
		m.pages[key] = f
	}
	return f
}

// keys are the keys the model holds, in order (findings come out the same
// way every run).
func (m *model) keys() []string { return slices.Sorted(maps.Keys(m.pages)) }

func (m *model) find(rule string, ex *client.Exchange, format string, args ...any) {
	m.v.Findings = append(m.v.Findings, Finding{Rule: rule, Ex: ex, Problem: fmt.Sprintf(format, args...)})
}

// apply changes the model by one write; it returns why the model stops,
// or "".
func (m *model) apply(s *Seen) string {
	w := s.write
	line := fmt.Sprintf("%s %s (%s)", s.Ex.Method, s.Ex.URL, outcome(s.Ex))
	refused := w.answered && w.status >= 400 && w.status < 500
	success := w.answered && w.status >= 200 && w.status < 300
	switch {
	case refused:
		// Nothing changes: a refused write has no effect (7); a view
		// that disagrees with the facts from before it is a finding.
		if f := m.pages[w.key]; w.page && f != nil {
			f.between = append(f.between, "the refused "+line)
		}
		m.noteBetween(w.key, line)
		return ""
	case !w.page || w.key == "" && w.method != http.MethodPost:
		// Settings, uploads, other endpoints: they may change what
		// pages show (a permalink, a cover image): every page's fields
		// are learned again, and none is judged once such a write got
		// no answer (it may land at any time).
		for _, f := range m.pages {
			f.fields, f.between = nil, nil
		}
		m.fieldsUnsure = m.fieldsUnsure || !success
		return ""
	case !success && w.method == http.MethodPost:
		return fmt.Sprintf("the create %s got no success and no refusal from the API: it may have added a page, on any key, at any time", line)
	case !success:
		for key, f := range m.pages {
			if key == w.key || strings.HasPrefix(key, w.key+"/") {
				f.uncertain = true
			}
		}
		m.of(w.key).uncertain = true
		return ""
	}
	m.applySuccess(s, line)
	return ""
}

// applySuccess applies a page write the API accepted.
func (m *model) applySuccess(s *Seen, line string) {
	w := s.write
	switch w.method {
	case http.MethodPost:
		if w.newKey != "" {
			*m.of(w.newKey) = facts{state: live}
		}
	case http.MethodDelete:
		m.forget(w.key)
		*m.of(w.key) = facts{state: gone, goneRule: RuleDeleteGone, goneBy: "deleted by " + line}
	default: // an edit
		m.forget(w.key)
		to := w.newKey
		if to == "" {
			to = w.key // 3.2: the new key comes in data.key; none given, none changed
		}
		if to != w.key {
			*m.of(w.key) = facts{state: gone, goneRule: RuleKeyChange, goneBy: "renamed to " + to + " by " + line}
		}
		*m.of(to) = facts{state: live}
	}
	m.noteBetween(w.key, line)
	for _, p := range s.pages {
		m.judgePage(s.Ex, p)
	}
}

// forget drops what the model knows of key's fields, and of its children's
// (a rename of a parent renames its children; their keys are learned
// again from the answers that show them).
func (m *model) forget(key string) {
	for k, f := range m.pages {
		if k == key || strings.HasPrefix(k, key+"/") {
			f.fields, f.between = nil, nil
			if k != key && f.state == live {
				f.state = unknown
			}
		}
	}
}

// noteBetween adds a write of key to the words of every other page's facts.
func (m *model) noteBetween(key, line string) {
	for k, f := range m.pages {
		if k != key && len(f.fields) > 0 {
			f.between = append(f.between, line)
		}
	}
}

func outcome(ex *client.Exchange) string {
	if ex.Status == 0 {
		return "no answer"
	}
	return fmt.Sprintf("%d", ex.Status)
}

// judgePage judges one page object an answer shows against the page's
// facts, learning them when it has none.
func (m *model) judgePage(ex *client.Exchange, p shown) {
	f := m.of(p.key)
	switch {
	case f.uncertain:
		return
	case f.state == gone:
		m.v.Judged[f.goneRule]++
		m.find(f.goneRule, ex, "%s shows page %s, %s", p.where, p.key, f.goneBy)
		return
	case m.fieldsUnsure:
		return
	}
	var differ []string
	for _, field := range pageFields {
		got := p.obj.Get(field)
		if !got.Exists() {
			continue // not shown (a brief listing item, or the shape rules' concern)
		}
		want, ok := f.fields[field]
		switch {
		case !ok:
			if f.fields == nil {
				f.fields = map[string]learned{}
			}
			f.fields[field] = learned{val: got, from: p.where}
		case field == "type" && want.val.String() == "scheduled" && got.String() == "published":
			// How a scheduled page becomes published is not shown (3).
			f.fields[field], f.timePublished = learned{val: got, from: p.where}, true
		default:
			m.v.Judged[RuleViewsAgree]++
			if !readback.Same(want.val, got) {
				differ = append(differ, fmt.Sprintf("%s is %s there but %s in %s", field, got.Raw, want.val.Raw, want.from))
			}
		}
	}
	if len(differ) > 0 {
		m.find(RuleViewsAgree, ex, "page %s in %s: %s%s", p.key, p.where, strings.Join(differ, "; "), f.writesWords())
	}
}

// learned is one field's value as an answer showed it, and which.
type learned struct {
	val  gjson.Result
	from string
}

// writesWords names the writes between the answer the facts come from and
// now: none of them was a write of the page.
func (f *facts) writesWords() string {
	if len(f.between) == 0 {
		return " (no write between the two answers)"
	}
	shown := f.between[:min(len(f.between), 3)]
	more := ""
	if len(f.between) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(f.between)-len(shown))
	}
	return " (between the two answers the run wrote no page but other pages, or refused: " + strings.Join(shown, ", ") + more + ")"
}

// pageFields are the fields of the page object (2.1) compared between
// views.
var pageFields = []string{"key", "uuid", "title", "description", "type", "slug", "content", "contentRaw", "date", "dateRaw",
	"dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}
