package runner

import (
	"fmt"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/report"
)

// recordHAR attaches a HAR recorder to c when the run writes a HAR log
// (--har-report): only then are large bodies kept past their spec (within
// har.Limits' defaults), and only then does the run pay for it.
func recordHAR(cfg Config, c *client.Client) *har.Recorder {
	if cfg.HARReport == "" {
		return nil
	}
	return har.Record(c, har.Limits{})
}

// harOptions names the suite and the run in the log.
func harOptions(run *report.Run) har.Options {
	m := run.Meta
	return har.Options{Creator: har.Creator{Name: "conformance", Version: m.SuiteVersion},
		Comment: fmt.Sprintf("conformance run %s of %s (%s mode), %d requests", m.RunID, m.Target, m.Mode, m.Requests)}
}
