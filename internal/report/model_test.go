package report

import "testing"

func TestRepoRelative(t *testing.T) {
	cases := map[string]string{
		"/home/dev/src/conformance/suites/pages/reads.go:131":                       "suites/pages/reads.go:131",
		"github.com/conformance-suite/conformance/internal/framework/install.go:67": "internal/framework/install.go:67",
		"reads.go:3": "reads.go:3",
	}
	for in, want := range cases {
		if got := repoRelative(in); got != want {
			t.Errorf("repoRelative(%q) = %q, want %q", in, got, want)
		}
	}
}
