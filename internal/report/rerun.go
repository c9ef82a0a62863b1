package report

import (
	"fmt"
	"os"
	"strings"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// LabelCrossCutting is the label of the specs that judge every exchange
// of the run (internal/framework labels them with this constant).
const LabelCrossCutting = verdict.LabelCrossCutting

// failedRules lists the rules a run failed or could not finish, in report
// order, and says which of them are cross-cutting (judged on every
// exchange of the run rather than by one spec).
func (r *Run) failedRules() (ids []string, crossCutting bool) {
	for _, rr := range r.Rules {
		if failing(rr.Status) {
			ids = append(ids, rr.ID)
			crossCutting = crossCutting || rr.CrossCutting
		}
	}
	return ids, crossCutting
}

// RerunFilter is the Ginkgo label filter that selects the specs of the
// rules a run failed: rule labels are key:value ("rule:ID"), so the set
// operator containsAny picks them. It keeps the earlier run's own label
// filter, so the same specs of those rules run again. A cross-cutting rule
// is judged on the exchanges other specs make, so when one failed every
// ordinary spec the earlier run selected runs again too (the other
// cross-cutting rules stay out). extra, a label filter given now, narrows
// the result. ok is false when nothing failed.
func RerunFilter(r *Run, extra string) (filter string, ids []string, ok bool) {
	ids, cross := r.failedRules()
	if len(ids) == 0 {
		return "", nil, false
	}
	filter = fmt.Sprintf("rule: containsAny {%s}", strings.Join(ids, ", "))
	if cross {
		filter = fmt.Sprintf("%s || !%s", filter, LabelCrossCutting)
	}
	parts := []string{filter}
	for _, f := range []string{r.Meta.LabelFilter, extra} {
		if strings.TrimSpace(f) != "" {
			parts = append([]string{f}, parts...)
		}
	}
	if len(parts) == 1 {
		return filter, ids, true
	}
	for i := range parts {
		parts[i] = "(" + parts[i] + ")"
	}
	return strings.Join(parts, " && "), ids, true
}

// ReadJSONFile reads a JSON report from a file.
func ReadJSONFile(path string) (*Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(r.Rules) == 0 {
		return nil, fmt.Errorf("%s: a conformance JSON report lists rules; this one lists none", path)
	}
	return r, nil
}
