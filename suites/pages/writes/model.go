package writes

// The site as the run's writes must have left it (rules/sitemodel): every
// answer of the run, whichever spec asked for it, is read for what it
// shows of the run's pages as it is recorded, and once every other spec
// has run the answers are replayed in the order they were on the wire and
// judged against the model. A view that no write chain reads again (a
// listing the taxonomy specs read later, the backstop's listing at the end
// of the run) is compared too, at no request of its own.

import (
	"fmt"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/sitemodel"
)

// modelCase is the Case of the specs the model judges.
const modelCase = "every answer of the run, against what its writes left"

// registerSiteModel starts reading every answer of t's run for the model,
// and registers one spec per rule it judges, after every other spec.
func registerSiteModel(t *framework.Fixture) {
	m := sitemodel.NewRecorder(t.RunID, apiPrefix(t.Client.BaseURL()), keptItems)
	t.Client.OnExchange(m.Record)
	Describe("The run's pages in every answer, against what its writes left", framework.PhaseEveryAnswer,
		Label(framework.LabelCrossCutting), func() {
			// Each spec replays the answers anew (a few hundred, in
			// microseconds): every other spec has run by then.
			for _, rule := range sitemodel.Rules() {
				t.It(rule, func(SpecContext) { judgeModel(t, rule, m.Judge()) }, framework.Case(modelCase))
			}
		})
}

// apiPrefix is the path the API's endpoints start with on baseURL.
func apiPrefix(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "/api/"
	}
	return strings.TrimRight(u.Path, "/") + "/api/"
}

// keptItems gives the objects of a list answer as the run read it: a
// body read whole, or a listing or a term's pages read as a stream.
func keptItems(ex *client.Exchange, path string) sitemodel.Kept {
	k := pagelist.KeptItems(ex, path)
	return sitemodel.Kept{Pages: k.Pages, Whole: k.Whole, Only: k.Only}
}

// maxModelFindings bounds the findings a failure lists.
const maxModelFindings = 20

// judge reports the model's verdicts on rule.
func judgeModel(t *framework.Fixture, rule string, v sitemodel.Verdicts) {
	if v.Judged[rule] == 0 {
		why := "no answer of the run showed a page the run wrote in a way this rule judges"
		if v.Stopped != "" {
			why += "; the model stopped judging: " + v.Stopped
		}
		verdicts.NotChecked("%s", why)
	}
	var lines []string
	var first *client.Exchange
	for _, f := range v.Findings {
		if f.Rule != rule {
			continue
		}
		if first == nil {
			first = f.Ex
			t.Judged(f.Ex)
		}
		if len(lines) == maxModelFindings {
			lines = append(lines, "and more")
			break
		}
		lines = append(lines, f.Problem)
	}
	Expect(lines).To(BeEmpty(), match.Evidence(first, "every answer of the run shows the run's pages as its writes left them "+
		"(%d judgements%s)", v.Judged[rule], stoppedWords(v)))
}

func stoppedWords(v sitemodel.Verdicts) string {
	if v.Stopped == "" {
		return ""
	}
	return fmt.Sprintf("; judged up to where the model stopped: %s", v.Stopped)
}
