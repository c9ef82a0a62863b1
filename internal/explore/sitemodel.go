package explore

// The site model of a normal run (rules/sitemodel), kept over the whole
// exploration: every answer is judged against what explore's writes
// before it left, as the run judges its own. What it finds holds across
// cases (a write, then a later answer), so it is reported without a
// shrunk case or a replay file: the two exchanges and the rule say it.

import (
	"net/url"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
	"github.com/conformance-suite/conformance/internal/rules/sitemodel"
)

// kindSiteModel is the Kind of a finding of the site model.
const kindSiteModel gen.Kind = "site-model"

// recordSite starts keeping the exploration's answers for the site model.
func recordSite(c *client.Client, runID string) *sitemodel.Recorder {
	prefix := "/api/"
	if u, err := url.Parse(c.BaseURL()); err == nil {
		prefix = strings.TrimRight(u.Path, "/") + "/api/"
	}
	r := sitemodel.NewRecorder(runID, prefix, sitemodel.WholeBody)
	c.OnExchange(r.Record)
	return r
}

// judgeSite adds the site model's findings to the records, one per rule
// and problem (the first answer that showed it).
func (s *session) judgeSite() {
	if s.modelled == nil {
		return
	}
	seen := map[string]bool{}
	for _, f := range s.modelled.Judge().Findings {
		if seen[f.Rule] {
			continue // one record a rule: the first answer that broke it
		}
		seen[f.Rule] = true
		s.records = append(s.records, Record{Kind: kindSiteModel, Hits: 1, Exchanges: []*client.Exchange{f.Ex},
			Finding: oracle.Finding{Rule: f.Rule, What: "the exploration's pages after its writes",
				Expected: "every answer to show the pages as the writes before it left them", Got: f.Problem, Seq: f.Ex.Seq}})
	}
}
