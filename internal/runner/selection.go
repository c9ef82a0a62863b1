package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// suiteName is the description every run and preview gives Ginkgo.
const suiteName = "Content Management API conformance"

// selects reports whether sc selects some of the specs: a label filter, a
// focus or a skip (or a filter of Ginkgo's the runner does not set).
// Without one, every spec runs.
func selects(sc types.SuiteConfig) bool {
	return sc.LabelFilter != "" || len(sc.FocusStrings) > 0 || len(sc.SkipStrings) > 0 ||
		len(sc.FocusFiles) > 0 || len(sc.SkipFiles) > 0 || sc.SemVerFilter != ""
}

// checkSelection walks the registered specs without running one (and
// without a request) and says what is wrong with the run's selection: a
// label neither the specs nor extra have, or filters that leave no spec.
// Ginkgo itself silently runs nothing in both cases, and the run would
// "pass" having checked nothing.
//
// Call it before registering top-level setup nodes (framework.Install):
// PreviewSpecs puts back a copy of the suite that keeps its containers
// and suite nodes but not a BeforeEach or AfterEach outside a container
// (ginkgo v2.34, Suite.Clone). It returns the preview too (newPlan).
func checkSelection(sc types.SuiteConfig, extra []string) (problems []string, preview types.Report) {
	rep := ginkgo.PreviewSpecs(suiteName, sc)
	known := map[string]string{} // lower case -> as the suite spells it
	for _, l := range extra {
		known[strings.ToLower(l)] = l
	}
	selected := 0
	for _, sr := range rep.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt {
			continue
		}
		for _, l := range sr.Labels() {
			known[strings.ToLower(l)] = l
		}
		if sr.State == types.SpecStatePassed { // a dry run "passes" what it selected
			selected++
		}
	}
	if problems := unknownLabels(sc.LabelFilter, known); len(problems) > 0 {
		return problems, rep
	}
	if selected > 0 {
		return nil, rep
	}
	var what []string
	if sc.LabelFilter != "" {
		what = append(what, fmt.Sprintf("--label-filter %q", sc.LabelFilter))
	}
	for _, f := range sc.FocusStrings {
		what = append(what, fmt.Sprintf("--focus %q", f))
	}
	for _, s := range sc.SkipStrings {
		what = append(what, fmt.Sprintf("--skip %q", s))
	}
	return []string{strings.Join(what, " with ") + " selects no spec of the suite: nothing would be checked (conformance rules lists the rule IDs and areas)"}, rep
}

// selectedSpecs names (framework.SpecKey) the specs a preview says the
// run will run: the only ones whose fixtures a framework.Group prepares.
func selectedSpecs(preview types.Report) []string {
	var keys []string
	for _, sr := range preview.SpecReports {
		if sr.LeafNodeType == types.NodeTypeIt && sr.State == types.SpecStatePassed {
			keys = append(keys, framework.SpecKey(sr.LeafNodeLocation, sr.LeafNodeText))
		}
	}
	return keys
}

// catalogueLabels are the labels of the catalogue's rules (rule:ID,
// area:A, endpoint:...) and the framework's own, whether or not a spec
// registered so far carries them.
func catalogueLabels(cat *spec.Catalogue) []string {
	out := []string{framework.LabelWrites, framework.LabelSettingsWrites, framework.LabelCrossCutting}
	for _, r := range cat.Rules() {
		out = append(out, r.Label(), "area:"+string(r.Area))
		for _, e := range r.Endpoints {
			out = append(out, e.Label())
		}
	}
	return out
}

// unknownLabels lists, one problem each, the labels a filter names that no
// spec carries, with the closest labels the suite has.
func unknownLabels(filter string, known map[string]string) []string {
	var problems []string
	for _, ref := range filterLabels(filter) {
		if _, ok := known[strings.ToLower(ref)]; ok {
			continue
		}
		problems = append(problems, fmt.Sprintf("--label-filter %q: no spec has the label %s; %s", filter, ref, suggest(ref, known)))
	}
	return problems
}

// suggest names the labels closest to an unknown one: every label of its
// kind when there are few (areas, endpoints), else the nearest few. A
// label without a key is also compared with the values of keyed ones
// ("pages" is close to area:pages).
func suggest(ref string, known map[string]string) string {
	key, _, hasKey := strings.Cut(ref, ":")
	var pool []string
	for _, l := range known {
		if k, _, ok := strings.Cut(l, ":"); !hasKey || ok && strings.EqualFold(k, key) {
			pool = append(pool, l)
		}
	}
	if len(pool) == 0 { // an unknown key: show every label
		for _, l := range known {
			pool = append(pool, l)
		}
	}
	slices.Sort(pool)
	near := nearest(ref, pool, 3)
	close := len(near) > 0 && closeness(ref, near[0]) <= 2
	if hasKey && len(pool) <= 25 {
		if close {
			return fmt.Sprintf("did you mean %s? The suite has %s", near[0], strings.Join(pool, ", "))
		}
		return "the suite has " + strings.Join(pool, ", ")
	}
	if close {
		return fmt.Sprintf("did you mean %s? (conformance rules lists every rule ID and area)", near[0])
	}
	return fmt.Sprintf("the closest are %s (conformance rules lists every rule ID and area)", strings.Join(near, ", "))
}

// closeness of a label to an unknown one, lower is closer: the edit
// distance to the label or to its value, and 1 when one contains the
// other (rule:PAGE-LIST for rule:PAGE-LIST-ALL).
func closeness(ref, label string) int {
	ref, label = strings.ToLower(ref), strings.ToLower(label)
	_, value, _ := strings.Cut(label, ":")
	_, refValue, hasKey := strings.Cut(ref, ":")
	if !hasKey {
		refValue = ref
	}
	d := min(distance(ref, label), distance(refValue, value))
	if refValue != "" && (strings.Contains(value, refValue) || strings.Contains(refValue, value)) {
		d = min(d, 1)
	}
	return d
}

// nearest returns the n labels of pool closest to ref.
func nearest(ref string, pool []string, n int) []string {
	out := slices.Clone(pool)
	slices.SortStableFunc(out, func(a, b string) int { return closeness(ref, a) - closeness(ref, b) })
	return out[:min(n, len(out))]
}

// distance is the Levenshtein distance between two strings.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}

// filterLabels lists the labels a Ginkgo label filter names, the way
// types.ParseLabelFilter reads them: words between the operators
// & | ! , ( ), regular expressions (/.../) left out, and the values of a
// set operation ("rule: containsAny {A,B}") as key:value labels. The filter
// has been parsed successfully before this runs.
func filterLabels(filter string) []string {
	var out []string
	rs := []rune(filter)
	for i := 0; i < len(rs); {
		switch c := rs[i]; {
		case strings.ContainsRune("&|!,() ", c):
			i++
		case c == '/': // a regular expression: it names no label
			j := i + 1
			for j < len(rs) && rs[j] != '/' {
				j++
			}
			i = j + 1
		default:
			j := i
			for j < len(rs) && !strings.ContainsRune("&|!,()/", rs[j]) && !(rs[j] == ':' && j+1 < len(rs) && rs[j+1] == ' ') {
				j++
			}
			word := strings.TrimSpace(string(rs[i:j]))
			if j < len(rs) && rs[j] == ':' { // "key: operation argument"
				values, next := setValues(rs, j+1)
				for _, v := range values {
					out = append(out, word+":"+v)
				}
				i = next
				continue
			}
			if word != "" {
				out = append(out, word)
			}
			i = j
		}
	}
	return out
}

// setValues reads "operation {a,b}" or "operation a" from rs[i:] and
// returns the values and where the set operation ends.
func setValues(rs []rune, i int) ([]string, int) {
	for i < len(rs) && rs[i] == ' ' {
		i++
	}
	for i < len(rs) && !strings.ContainsRune(" )", rs[i]) { // the operation's name
		i++
	}
	for i < len(rs) && rs[i] == ' ' {
		i++
	}
	var arg string
	if i < len(rs) && rs[i] == '{' {
		j := i + 1
		for j < len(rs) && rs[j] != '}' {
			j++
		}
		arg, i = string(rs[i+1:min(j, len(rs))]), j+1
	} else {
		j := i
		for j < len(rs) && !strings.ContainsRune("&|!,()/", rs[j]) {
			j++
		}
		arg, i = string(rs[i:j]), j
	}
	var values []string
	for _, v := range strings.Split(arg, ",") {
		if v = strings.TrimSpace(v); v != "" {
			values = append(values, v)
		}
	}
	return values, i
}
