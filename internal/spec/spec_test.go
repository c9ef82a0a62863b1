package spec

import (
	"strings"
	"testing"
)

func TestCatalogueIsValid(t *testing.T) {
	if _, err := New(allRules()); err != nil {
		t.Fatal(err)
	}
}

func TestNewRejectsBadRules(t *testing.T) {
	good := Rule{ID: "PAGE-X", Section: "4.1", Level: Must, Area: AreaPages, Text: "x"}
	cases := []struct {
		name string
		rs   []Rule
		want string
	}{
		{"lowercase id", []Rule{{ID: "page-x", Section: "1", Level: Must, Area: AreaPages, Text: "x"}}, "ID must look like"},
		{"duplicate", []Rule{good, good}, "duplicate ID"},
		{"no section", []Rule{{ID: "PAGE-Y", Level: Must, Area: AreaPages, Text: "x"}}, "required"},
		{"bad level", []Rule{{ID: "PAGE-Y", Section: "1", Level: "MAY", Area: AreaPages, Text: "x"}}, "required"},
		{"unknown area", []Rule{{ID: "PAGE-Y", Section: "1", Level: Must, Area: "nope", Text: "x"}}, "required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.rs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want error containing %q, got %v", c.want, err)
			}
		})
	}
}

func TestEveryEndpointHasRules(t *testing.T) {
	// Each of the 16 endpoints must be named by at least one testable rule,
	// or by a rule that applies to all endpoints.
	named := map[Endpoint]bool{}
	for _, r := range All().Rules() {
		if r.Testable() {
			for _, e := range r.Endpoints {
				named[e] = true
			}
		}
	}
	for _, e := range Endpoints() {
		if !named[e] {
			t.Errorf("no testable rule names endpoint %s", e)
		}
	}
}

func TestEndpointHelpers(t *testing.T) {
	if got := GetPage.Label(); got != "endpoint:GET.pages.key" {
		t.Errorf("label = %q", got)
	}
	// Every spec of a run is labelled: a label is a few allocations, not
	// a strings.Replacer built for each.
	if n := testing.AllocsPerRun(20, func() { _ = GetPage.Label() }); n > 5 {
		t.Errorf("a label allocates %.0f objects, want at most 5", n)
	}
	if !UploadFile.Writes() || ListFiles.Writes() || !GetSettings.NeedsAuth() || GetPage.NeedsAuth() {
		t.Error("write/auth classification wrong")
	}
	if GetUser.Path() != "/api/users/{username}" || GetUser.Method() != "GET" {
		t.Error("method/path split wrong")
	}
}

func TestNotTestableRulesSayWhy(t *testing.T) {
	for _, r := range All().Rules() {
		if !r.Testable() && len(r.NotTestable) < 10 {
			t.Errorf("%s: reason %q is too short to help a reader", r.ID, r.NotTestable)
		}
	}
}
