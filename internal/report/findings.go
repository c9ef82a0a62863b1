package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// This file groups a run's failed rules by root cause: one field of the
// page object with the wrong type breaks the shape rule of every endpoint
// that returns pages, and a reader needs the one cause, with the rules it
// breaks under it, not each rule's failure one after the other. Causes are
// read from what the failing specs recorded as data (verdict.Fact and
// verdict.Exchange), never from their rendered messages.

// Finding is one cause behind failed rules.
type Finding struct {
	// Fact is the cause in the words of the first failed expectation that
	// saw it ("data.tags: expected object, got string").
	Fact string
	// Also lists the other facts the same rules showed, in the same words
	// (further fields of the same object broken the same way).
	Also []string
	// Rules are the IDs of the failed rules the cause explains, in
	// catalogue order.
	Rules []string
	// Seen names up to three requests whose answers showed it
	// ("GET /api/tags/music → 200").
	Seen []string
}

// cause is a candidate finding while the run is read.
type cause struct {
	key   string
	fact  string
	rules map[string]bool
	seen  []string
	order int // first appearance, for stable output
	// vague causes are facts in words only, about no field or status.
	vague bool
	// For a field holding a kind of value the spec does not allow there:
	// the field's paths (array indexes dropped) and that kind, which an
	// answer can be searched for (no paths for any other cause).
	paths map[string]bool
	kind  string
}

// Findings groups the failed rules of the run by the cause that explains
// them. A rule no recorded fact explains is left out: Unexplained lists
// those. Each failed rule is under one finding at most (the cause that
// explains the most rules wins).
func (r *Run) Findings() []Finding {
	causes := map[string]*cause{}
	var vague []SpecResult // failing specs with no fact about a field or a status
	for _, rr := range r.Rules {
		if rr.Status != Failed {
			continue
		}
		for _, s := range r.failingSpecs(rr) {
			precise := false
			for _, f := range s.Facts {
				c := causeOf(f, s.Exchanges, causes)
				if c == nil {
					continue
				}
				precise = precise || !c.vague
				c.rules[rr.ID] = true
				if ex, ok := exchangeBySeq(s.Exchanges, f.Seq); ok {
					c.seen = appendSeen(c.seen, ex)
				}
			}
			if !precise {
				v := s
				v.Rules = []string{rr.ID}
				vague = append(vague, v)
			}
		}
	}
	// A failing spec that recorded no fact about a field (a plain Gomega
	// assertion, a list of problems in words) is put under the cause of a
	// field of the wrong kind when the answer it judged shows that cause
	// and no other: with several, which one broke it cannot be told.
	for _, s := range vague {
		var shown []*cause
		var where verdict.Exchange
		for _, c := range sortedCauses(causes) {
			if ex, ok := showsField(judged(s), c); ok {
				shown, where = append(shown, c), ex
			}
		}
		if len(shown) == 1 {
			shown[0].rules[s.Rules[0]] = true
			shown[0].seen = appendSeen(shown[0].seen, where)
		}
	}
	return pickFindings(sortedCauses(causes), r.ruleOrder())
}

// judged are the answers a failing spec's expectations judged: those its
// facts name, or, when it recorded none, the last answer it received,
// which is what a plain assertion judges (a spec asserts on what it has
// just read).
func judged(s SpecResult) []verdict.Exchange {
	var out []verdict.Exchange
	for _, f := range s.Facts {
		if ex, ok := exchangeBySeq(s.Exchanges, f.Seq); ok {
			out = append(out, ex)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i := len(s.Exchanges) - 1; i >= 0; i-- {
		if s.Exchanges[i].Status != 0 {
			return s.Exchanges[i : i+1]
		}
	}
	return nil
}

// Unexplained lists the failed rules no finding explains, in catalogue
// order.
func (r *Run) Unexplained(findings []Finding) []RuleResult {
	explained := map[string]bool{}
	for _, f := range findings {
		for _, id := range f.Rules {
			explained[id] = true
		}
	}
	var out []RuleResult
	for _, rr := range r.Rules {
		if rr.Status == Failed && !explained[rr.ID] {
			out = append(out, rr)
		}
	}
	return out
}

// failingSpecs are the specs of a rule that failed.
func (r *Run) failingSpecs(rr RuleResult) []SpecResult {
	var out []SpecResult
	for _, i := range rr.Specs {
		if i >= 0 && i < len(r.Specs) && r.Specs[i].Status == Failed {
			out = append(out, r.Specs[i])
		}
	}
	return out
}

func (r *Run) ruleOrder() map[string]int {
	order := map[string]int{}
	for i, rr := range r.Rules {
		order[rr.ID] = i
	}
	return order
}

// pickFindings turns causes into findings, greedily: the cause explaining
// the most rules not yet explained first. A cause whose rules are all
// explained by an earlier one, and that shows in exactly the same rules,
// joins it as Also (more fields broken the same way).
func pickFindings(causes []*cause, order map[string]int) []Finding {
	var out []Finding
	var picked []*cause
	taken := map[string]bool{}
	for {
		var best *cause
		bestNew := 0
		for _, c := range causes {
			n := 0
			for id := range c.rules {
				if !taken[id] {
					n++
				}
			}
			if n > bestNew {
				best, bestNew = c, n
			}
		}
		if best == nil {
			break
		}
		f := Finding{Fact: best.fact, Seen: best.seen}
		for id := range best.rules {
			if !taken[id] {
				f.Rules = append(f.Rules, id)
				taken[id] = true
			}
		}
		sort.Slice(f.Rules, func(i, j int) bool { return order[f.Rules[i]] < order[f.Rules[j]] })
		out = append(out, f)
		picked = append(picked, best)
	}
	for _, c := range causes {
		if slices.Contains(picked, c) {
			continue
		}
		for i, p := range picked {
			if sameRules(c.rules, out[i].Rules) && len(out[i].Rules) == len(p.rules) {
				out[i].Also = append(out[i].Also, c.fact)
				break
			}
		}
	}
	return out
}

func sameRules(set map[string]bool, ids []string) bool {
	if len(set) != len(ids) {
		return false
	}
	for _, id := range ids {
		if !set[id] {
			return false
		}
	}
	return true
}

// sortedCauses orders causes by the number of rules they explain, then by
// first appearance, so that ties always resolve the same way.
func sortedCauses(m map[string]*cause) []*cause {
	out := make([]*cause, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].rules) != len(out[j].rules) {
			return len(out[i].rules) > len(out[j].rules)
		}
		return out[i].order < out[j].order
	})
	return out
}

// causeOf is the cause a fact names, added to causes when new; nil when
// the fact names none the report can tell apart from others:
//   - a field of a kind the spec does not allow there (Fact.Want): the
//     field's name and the kind the answer holds (a string where the spec
//     wants an object is one cause wherever the field appears);
//   - a field missing: the field's name and the resource answered (the
//     description of a page and that of a tag are two things);
//   - a field's value of the right kind that is wrong: the field's name
//     and the fact's words, values masked;
//   - the HTTP status alone: the status seen;
//   - any other fact that says what was got: its words, values masked.
func causeOf(f verdict.Fact, exs []verdict.Exchange, causes map[string]*cause) *cause {
	c := &cause{rules: map[string]bool{}, paths: map[string]bool{}, order: len(causes)}
	ex, ok := exchangeBySeq(exs, f.Seq)
	switch {
	case f.Field != "" && ok && ((!ex.Cut && gjson.Valid(ex.Body)) || (f.Want != "" && f.Found != "")):
		segs := fieldSegments(f.Field)
		kind := "missing"
		if !ex.Cut && gjson.Valid(ex.Body) {
			kind = kindAt(gjson.Parse(ex.Body), segs)
		}
		if kind == "missing" && f.Want != "" && f.Found != "" {
			// Judged as a stream went by: the answer kept does not hold
			// the field, the fact names the kind it had.
			kind = f.Found
		}
		name := fieldName(segs)
		switch {
		case kind == "missing":
			c.key = "missing " + name + " " + resource(ex.Path)
			c.fact = f.Field + " is missing"
		case f.Want != "":
			c.key, c.kind = "kind "+name+" "+kind, kind
			c.fact = fmt.Sprintf("%s is %s where the spec wants %s", f.Field, withArticle(kind), withArticle(f.Want))
			c.paths[strings.Join(withoutIndexes(segs), ".")] = true
		default:
			c.key = "value " + name + " " + masked(strings.TrimPrefix(f.Got, f.Field))
			c.fact = factWords(f)
		}
	case f.Field == "" && f.Status != 0 && f.Got == fmt.Sprintf("HTTP %d", f.Status):
		c.key = "status " + strconv.Itoa(f.Status)
		c.fact = fmt.Sprintf("answered HTTP %d where the spec wants another status", f.Status)
	case f.Rendered != "": // a plain Gomega assertion's values: no cause of their own
		return nil
	case f.Got != "":
		c.key, c.vague = "words "+masked(f.Expected)+" "+masked(f.Got), true
		c.fact = factWords(f)
	default:
		return nil
	}
	known := causes[c.key]
	if known == nil {
		causes[c.key] = c
		return c
	}
	for p := range c.paths {
		known.paths[p] = true
	}
	if len(c.fact) < len(known.fact) {
		known.fact = c.fact // the shortest example reads best (data.tags, not data[12].tags)
	}
	return known
}

// resource is the API collection a request addresses ("pages" for
// /api/pages/alpha).
func resource(path string) string {
	if i := strings.LastIndex(path, "/api/"); i >= 0 {
		path = path[i+len("/api/"):]
	}
	first, _, _ := strings.Cut(path, "/")
	return first
}

// withArticle names a kind of JSON value with its article ("an object",
// "a string or false").
func withArticle(kind string) string {
	switch {
	case strings.HasPrefix(kind, "object"), strings.HasPrefix(kind, "array"), strings.HasPrefix(kind, "integer"):
		return "an " + kind
	case strings.HasPrefix(kind, "null"), strings.HasPrefix(kind, "true"), strings.HasPrefix(kind, "false"):
		return kind
	}
	return "a " + kind
}

// factWords is a fact in one line: what was got, with the field it is
// about when the words do not name it.
func factWords(f verdict.Fact) string {
	got := strings.Join(strings.Fields(f.Got), " ")
	switch {
	case got == "":
		return strings.Join(strings.Fields(f.Expected), " ")
	case f.Field != "" && !strings.HasPrefix(got, f.Field):
		return f.Field + ": " + got
	}
	return got
}

// masked is a fact's words with the values in them replaced, so that the
// same fault in other values groups together: quoted strings become "…",
// and list indexes ([3], or .3 in a path) become [].
func masked(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) { // no closing quote: not a value
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString(`"…"`)
			i = j
		case (c == '[' || c == '.') && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			closed := c == '[' && j < len(s) && s[j] == ']'
			boundary := c == '.' && (j == len(s) || !isWordByte(s[j]))
			if !closed && !boundary {
				b.WriteByte(c)
				continue
			}
			b.WriteString("[]")
			if closed {
				j++
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func exchangeBySeq(exs []verdict.Exchange, seq int) (verdict.Exchange, bool) {
	for _, ex := range exs {
		if seq != 0 && ex.Seq == seq {
			return ex, true
		}
	}
	return verdict.Exchange{}, false
}

// maxSeen bounds the requests a finding names.
const maxSeen = 3

// appendSeen adds the request of ex to seen, once per method and path.
func appendSeen(seen []string, ex verdict.Exchange) []string {
	line := fmt.Sprintf("%s %s → %d", ex.Method, ex.Path, ex.Status)
	if len(seen) >= maxSeen || slices.Contains(seen, line) {
		return seen
	}
	return append(seen, line)
}
