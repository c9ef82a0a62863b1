package settings

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// The host sets locale from the language when an update changes the
// language, over a locale sent in the same update; an update of locale
// alone keeps the locale sent (shared/observations/host-settings-writes.md).
// So locale is changed by an update of its own, after the update of every
// other field (partial.go) has changed the language.

// editLocale: SETTINGS-EDIT-PARTIAL's case of locale alone. The locale
// sent (a comma-separated list, without spaces) must read back as the same
// list, and every other field as before.
func (w *writes) editLocale(ctx SpecContext) {
	w.g.Begin(ctx)
	needField(w.g, "locale")
	_, before, problem := w.g.Current(ctx)
	if problem != "" {
		verdicts.NotChecked("the settings could not be read before changing locale (%s)", problem)
	}
	value := pickSetting(before, "locale", "de,de_DE", "fr,fr_FR")
	put := w.g.Put(ctx, map[string]any{"locale": value})
	if put.Err != nil || put.Status == http.StatusBadRequest {
		verdicts.NotChecked("the update of locale alone was refused (%s): the spec does not say which locales a site takes "+
			"(2.6 gives only an example kind)", match.Outcome(put))
	}
	Expect(put).To(match.HaveHTTPStatus(http.StatusOK), "a PUT changing only locale")
	read, after, problem := w.g.Read(ctx)
	Expect(problem).To(BeEmpty(), match.Evidence(read, "GET /api/settings after the change gives the settings"))
	check := w.t.NewCheck()
	check.Exercised(coverage.CellID("update", "locale", coverage.Edit))
	if got := read.Get("data.locale"); !got.Exists() || !sameSetting("locale", value, got.Value(), "", "") {
		check.Problem(read, "locale was sent alone as %s, reads back %s", showJSON(value), got.Raw)
	}
	w.expectKept(ctx, check, read, before, after, "locale")
	check.Expect("a PUT changes only the fields present: locale sent alone reads back as the same comma-separated list " +
		"(spaces around the commas aside), and every other field keeps its value")
}
