package gen_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// A failure found by exploring shrinks to the smallest case that still
// fails: fewest fields, shortest strings, simplest values. rapid does the
// shrinking; what makes it reach the simplest case is how the generators
// draw (every alternative before the choice among them, the simplest
// choice first). Each test below makes rapid.Check fail on a condition a
// server could break on and looks at the case it shrank to.

// failing is rapid's TB for a check that is meant to fail: it records
// the failure instead of failing the test.
type failing struct {
	*testing.T
	failed bool
}

func (f *failing) Errorf(string, ...any) { f.failed = true }
func (f *failing) Error(...any)          { f.failed = true }
func (f *failing) Fatalf(string, ...any) { f.failed = true }
func (f *failing) Fatal(...any)          { f.failed = true }
func (f *failing) FailNow()              { f.failed = true }
func (f *failing) Fail()                 { f.failed = true }
func (f *failing) Failed() bool          { return f.failed }
func (f *failing) Logf(string, ...any)   {}
func (f *failing) Log(...any)            {}

// shrunkSeeds are the seeds each shrinking is checked with. They are
// fixed, as an exploration's are: rapid's integer draws lean to the ends
// of their range, and from the top end its shrinker does not always get
// away (about one random seed in a hundred leaves a long text at its
// 400-character maximum).
var shrunkSeeds = []string{"1", "2", "3"}

// shrunk runs rapid.Check with seed on cases of g that fail when breaks
// says so, and returns the last failing case: the one rapid shrank to.
func shrunk(t *testing.T, seed string, g *rapid.Generator[gen.Case], breaks func(gen.Case) bool) gen.Case {
	t.Helper()
	// rapid writes a file per failure into testdata unless told not to.
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		t.Fatal(err)
	}
	if err := flag.Set("rapid.seed", seed); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = flag.Set("rapid.seed", "0") }() // the other tests' seeds are random
	// Some breaking cases are rare (a negative position is one field in
	// one class of twelve, and not in every case): a thousand checks
	// draw them (rapid makes a fifth of its checks under -short).
	checks := flag.Lookup("rapid.checks").Value.String()
	n := "1000"
	if testing.Short() {
		n = "5000"
	}
	_ = flag.Set("rapid.checks", n)
	defer func() { _ = flag.Set("rapid.checks", checks) }()
	var last gen.Case
	tb := &failing{T: t}
	rapid.Check(tb, func(rt *rapid.T) {
		c := g.Draw(rt, "case")
		if breaks(c) {
			last = c
			rt.Fatalf("breaks")
		}
	})
	if !tb.failed {
		t.Fatalf("seed %s: no generated case breaks: the generator never makes one", seed)
	}
	return last
}

// manyTags is the many class's smallest value: n names t1 to tn.
func manyTags(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("t%d", i+1)
	}
	return strings.Join(names, ",")
}

// fieldsOf renders a case's fields as name=value, in order (a long value
// of one character repeated as a×n: see short).
func fieldsOf(c gen.Case) []string {
	var out []string
	for _, f := range c.Fields {
		out = append(out, short(fmt.Sprintf("%s=%v", f.Name, f.Value)))
	}
	return out
}

// short renders name=value with a value over 40 characters of one
// character repeated as name=c×n, and cuts any other long value, so that
// a failure shows what a case holds, not pages of it.
func short(nv string) string {
	name, v, _ := strings.Cut(nv, "=")
	r := []rune(v)
	if len(r) <= 40 {
		return nv
	}
	if strings.Count(v, string(r[0])) == len(r) {
		return fmt.Sprintf("%s=%c×%d", name, r[0], len(r))
	}
	return fmt.Sprintf("%s=%s…(%d)", name, string(r[:40]), len(r))
}

func paramsOf(c gen.Case) []string {
	var out []string
	for _, p := range c.Query {
		out = append(out, p.Name+"="+p.Value)
	}
	return out
}

// TestShrinking: each condition shrinks to the one case that shows it
// with nothing else: every optional field gone, every text "a", the
// type a draft, the date the earliest one, JSON rather than a form.
func TestShrinking(t *testing.T) {
	for _, c := range []struct {
		name   string
		g      *rapid.Generator[gen.Case]
		breaks func(gen.Case) bool
		want   []string // fields, or parameters of a list
		// or, when the failure also shows in another boundary class of
		// the same field, the case at that class's edge
		or []string
	}{
		{name: "a tag name with an ampersand", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, ok := c.Field("tags")
			s, _ := f.Value.(string)
			return ok && strings.Contains(s, "&")
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "tags=a&b"}},
		{name: "more than three tags and a category", g: gen.Create(full), breaks: func(c gen.Case) bool {
			tags, _ := c.Field("tags")
			s, _ := tags.Value.(string)
			cat, ok := c.Field("category")
			return strings.Count(s, ",") >= 3 && ok && !cat.Invalid
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "tags=a,a,a,a", "category=news"},
			or: []string{"slug={slug}", "title=a", "content=a", "type=draft", "tags=" + manyTags(50), "category=news"}},
		{name: "an edit of type and date together", g: gen.Edit(full), breaks: func(c gen.Case) bool {
			_, typ := c.Field("type")
			_, date := c.Field("date")
			return typ && date
		}, want: []string{"type=draft", "date=2001-01-01 00:00:00"}},
		{name: "a title over 80 characters", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("title")
			s, _ := f.Value.(string)
			return utf8.RuneCountInString(s) > 80
		}, want: []string{"slug={slug}", "title=" + strings.Repeat("a", 81), "content=a", "type=draft"}},
		{name: "a type outside the five", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("type")
			return f.Invalid
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=bogus"}},
		{name: "a title of another kind", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("title")
			_, isText := f.Value.(string)
			return !isText
		}, want: []string{"slug={slug}", "title=5", "content=a", "type=draft"}},
		// Boundary classes shrink to their edge (issue 32).
		{name: "a content over 10,000 characters", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("content")
			s, _ := f.Value.(string)
			return utf8.RuneCountInString(s) > 10_000
		}, want: []string{"slug={slug}", "title=a", "content=" + strings.Repeat("a", 10_001), "type=draft"}},
		// ("a" and a run of one piece: the run shrinks to 10,000 a.)
		{name: "a description with a control character", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("description")
			s, _ := f.Value.(string)
			return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' || r == 0x7f })
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "description=a\x01"}},
		{name: "tags with a blank segment", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("tags")
			s, _ := f.Value.(string)
			return strings.Contains(s, ",") && slices.ContainsFunc(strings.Split(s, ","), func(p string) bool { return strings.TrimSpace(p) == "" })
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "tags=,a"}},
		{name: "a negative position", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("position")
			n, _ := f.Value.(float64)
			return n < 0
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "position=-1"}},
		{name: "a malformed date", g: gen.Create(full), breaks: func(c gen.Case) bool {
			f, _ := c.Field("date")
			return f.Class == gen.ClassMalformed
		}, want: []string{"slug={slug}", "title=a", "content=a", "type=draft", "date=yesterday"}},
		{name: "untagged with a page size of 1", g: gen.List(), breaks: func(c gen.Case) bool {
			u, _ := c.Param("untagged")
			n, _ := c.Param("numberOfItems")
			return u == "true" && n == "1"
		}, want: []string{"untagged=true", "numberOfItems=1"}},
		{name: "a page size above 100", g: gen.List(), breaks: func(c gen.Case) bool {
			var n int
			s, _ := c.Param("numberOfItems")
			_, err := fmt.Sscanf(s, "%d", &n)
			return err == nil && n > 100 && fmt.Sprint(n) == s
		}, want: []string{"numberOfItems=101"}},
	} {
		seeds := shrunkSeeds
		if testkit.RaceEnabled {
			seeds = seeds[:1]
		}
		for _, seed := range seeds {
			got := shrunk(t, seed, c.g, c.breaks)
			have := fieldsOf(got)
			if got.Kind == gen.KindList {
				have = paramsOf(got)
			}
			want, or := slices.Clone(c.want), slices.Clone(c.or)
			for i := range want {
				want[i] = short(want[i])
			}
			for i := range or {
				or[i] = short(or[i])
			}
			if (!slices.Equal(have, want) && (or == nil || !slices.Equal(have, or))) || got.Form {
				t.Errorf("%s, seed %s: shrunk to %q (form %t), want %q in JSON", c.name, seed, have, got.Form, want)
			}
		}
	}
}
