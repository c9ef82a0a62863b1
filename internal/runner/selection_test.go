package runner

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestFilterLabels(t *testing.T) {
	for filter, want := range map[string][]string{
		"area:pages":            {"area:pages"},
		"area:pages && !writes": {"area:pages", "writes"},
		"(area:users || rule:PAGE-LIST-ALL),Serial": {"area:users", "rule:PAGE-LIST-ALL", "Serial"},
		"/page/ && area:pages":                      {"area:pages"},
		"rule: containsAny {A-B, C-D} && writes":    {"rule:A-B", "rule:C-D", "writes"},
		"rule: consistsOf A-B || x":                 {"rule:A-B", "x"},
		"area: isEmpty":                             nil,
		"":                                          nil,
	} {
		if got := filterLabels(filter); !slices.Equal(got, want) {
			t.Errorf("filterLabels(%q) = %q, want %q", filter, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	known := map[string]string{}
	for _, l := range []string{"area:pages", "area:users", "rule:PAGE-LIST-ALL", "rule:USER-GET-404", "writes", "endpoint:GET.pages"} {
		known[strings.ToLower(l)] = l
	}
	for ref, want := range map[string]string{
		"area:pagez":     "did you mean area:pages? The suite has area:pages, area:users",
		"pages":          "did you mean area:pages?",
		"rule:PAGE-LIST": "did you mean rule:PAGE-LIST-ALL?",
		"areas:users":    "did you mean area:users?",
	} {
		if got := suggest(ref, known); !strings.HasPrefix(got, want) {
			t.Errorf("suggest(%q) = %q, want it to start %q", ref, got, want)
		}
	}
}

// --timeout 0 means no limit: Ginkgo's own default would stop the run
// after an hour.
func TestTimeoutZeroIsNoLimit(t *testing.T) {
	if sc, _ := ginkgoConfig(Config{}); sc.Timeout != 0 {
		t.Errorf("--timeout 0 gives Ginkgo a timeout of %s, want none", sc.Timeout)
	}
	if sc, _ := ginkgoConfig(Config{Timeout: 5 * time.Minute}); sc.Timeout != 5*time.Minute {
		t.Errorf("--timeout 5m gives Ginkgo a timeout of %s", sc.Timeout)
	}
}
