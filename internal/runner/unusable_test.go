package runner

import (
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/report"
)

func TestUnusableRun(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "tok-tok-tok"})
	if err != nil {
		t.Fatal(err)
	}
	run := unusableRun(Config{SuiteVersion: "v9", RunID: "r1"}, c, time.Now(), "Cannot reach it.")
	if run.Verdict != "The target cannot be checked: Cannot reach it." || run.Meta.RunID != "r1" || run.Meta.Target != "http://127.0.0.1:9" {
		t.Errorf("verdict %q meta %+v", run.Verdict, run.Meta)
	}
	if run.Counts.Passed+run.Counts.Failed != 0 || len(run.Rules) == 0 {
		t.Errorf("counts %+v, %d rules", run.Counts, len(run.Rules))
	}
	for _, rr := range run.Rules {
		if rr.Status == report.NotChecked && rr.Reason != "the target cannot be checked (preflight)" {
			t.Errorf("rule %s: reason %q", rr.ID, rr.Reason)
		}
	}
}
