package summary

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

var testRules = []Rule{
	{ID: "TAG-GET-404", Section: "4.6", Area: "taxonomy", Text: "GET of a missing tag answers 404."},
	{ID: "PAGE-LIST-ALL", Section: "4.1", Area: "pages", Text: "The page list lists every page."},
	{ID: "SETTINGS-EDIT-OK", Section: "4.9", Area: "settings", Text: "Settings can be edited."},
}

func site(i int, name string, o Outcome, rules ...report.Status) Site {
	s := Site{Index: i, Name: name, BaseURL: "https://" + name + ".example", Mode: "read-only", Outcome: o, Exit: o.Exit(),
		Verdict: string(o) + " verdict of " + name, Started: time.Date(2026, 11, 29, 12, 0, i, 0, time.UTC), Duration: report.Duration(time.Second),
		Reports: Reports{JSON: "sites/" + name + "/report.json", HTML: "sites/" + name + "/report.html"}}
	if len(rules) > 0 {
		s.Rules = map[string]report.Status{}
		for k, st := range rules {
			s.Rules[testRules[k].ID] = st
			if st == report.Failed {
				s.Failures = map[string]string{testRules[k].ID: "Expected: HTTP 404; Got: HTTP 200 <&> \x01"}
				s.Counts.Failed++
			}
		}
	}
	return s
}

// fiveSites are the five sites of the example, in the targets
// file's order.
func fiveSites() []Site {
	return []Site{
		site(0, "alpha", Passed, report.Passed, report.Passed, report.NotChecked),
		site(1, "bravo", Failed, report.Failed, report.Passed, report.NotChecked),
		site(2, "down", CannotBeChecked),
		site(3, "delta", Passed, report.Passed, report.Passed, report.NotTestable),
		site(4, "echo", CouldNotFinish, report.Passed, report.Errored, report.NotChecked),
	}
}

func collect(t *testing.T, head Fleet, sites []Site, order []int) *Summary {
	t.Helper()
	c, err := NewCollector(head, testRules, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range order {
		if err := c.Add(sites[i]); err != nil {
			t.Fatal(err)
		}
	}
	s := c.Finish(3 * time.Second)
	t.Cleanup(s.Close)
	return s
}

func TestWorst(t *testing.T) {
	for _, c := range []struct {
		codes []int
		want  int
	}{
		{nil, 0}, {[]int{0, 0}, 0}, {[]int{0, 4}, 4}, {[]int{4, 1}, 1}, {[]int{1, 2}, 2}, {[]int{2, 3, 1}, 3},
		{[]int{3, 4}, 3}, {[]int{0, -1}, 1}, {[]int{197, 4}, 1},
	} {
		if got := Worst(c.codes...); got != c.want {
			t.Errorf("Worst(%v) = %d, want %d", c.codes, got, c.want)
		}
	}
}

// TestSummaryKeepsTheFilesOrder: sites finish in any order; the summary
// lists them as the targets file does, tallies each rule and takes the
// worst exit code.
func TestSummaryKeepsTheFilesOrder(t *testing.T) {
	s := collect(t, Fleet{Targets: Targets{File: "sites.yaml", Sites: 5}}, fiveSites(), []int{4, 2, 0, 3, 1})
	var got []string
	_ = s.Each(func(site Site) error { got = append(got, site.Name); return nil })
	if strings.Join(got, " ") != "alpha bravo down delta echo" {
		t.Errorf("sites in the order %v", got)
	}
	if s.Exit != 3 || s.Counts != (Counts{Sites: 5, Passed: 2, Failed: 1, CannotBeChecked: 1, CouldNotFinish: 1}) {
		t.Errorf("exit %d, counts %+v", s.Exit, s.Counts)
	}
	tag := s.Rules[0]
	if tag.Passed != 3 || tag.Failed != 1 || strings.Join(tag.FailedOn, ",") != "bravo" {
		t.Errorf("TAG-GET-404's tally: %+v", tag)
	}
	if s.Rules[1].Errored != 1 || s.Rules[2].NotTestable != 1 || s.Rules[2].NotChecked != 3 {
		t.Errorf("tallies: %+v", s.Rules)
	}
	if !strings.HasPrefix(s.Verdict, "FAIL: of 5 sites, 2 passed, 1 broke rules, 1 cannot be checked, 1 could not finish") {
		t.Errorf("verdict %q", s.Verdict)
	}
}

// TestFailedOnNamesTheFirstSites: a rule names the first sites it failed
// on by the file's order, whatever order they finished in.
func TestFailedOnNamesTheFirstSites(t *testing.T) {
	var sites []Site
	var order []int
	for i := range 25 {
		sites = append(sites, site(i, "s"+string(rune('a'+i)), Failed, report.Failed))
		order = append([]int{i}, order...) // the last first
	}
	s := collect(t, Fleet{}, sites, order)
	if got := strings.Join(s.Rules[0].FailedOn, ""); got != "sasbscsdsesfsgshsisj" || s.Rules[0].Failed != 25 {
		t.Errorf("FailedOn %q of %d", got, s.Rules[0].Failed)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s := collect(t, Fleet{SuiteVersion: "v9", Targets: Targets{File: "sites.yaml", Digest: "sha256:x", Sites: 5}}, fiveSites(), []int{0, 1, 2, 3, 4})
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(b.Bytes(), &generic); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	var sites []Site
	head, err := Read(&b, nil, func(s Site) error { sites = append(sites, s); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if head.Kind != Kind || head.Exit != 3 || head.Verdict != s.Verdict || len(head.Rules) != 3 || len(sites) != 5 {
		t.Errorf("read back %+v with %d sites", head, len(sites))
	}
	if sites[1].Rules["TAG-GET-404"] != report.Failed || sites[1].Failures["TAG-GET-404"] == "" {
		t.Errorf("bravo read back as %+v", sites[1])
	}
	if _, err := Read(strings.NewReader(`{"formatVersion": 2, "meta": {}, "rules": []}`), nil, nil); err == nil {
		t.Error("a single run's report read as a fleet summary")
	}
}

// TestJUnitOneSuitePerSite: one <testsuite> per site, valid against the
// schema the single run's JUnit report follows.
func TestJUnitOneSuitePerSite(t *testing.T) {
	s := collect(t, Fleet{Targets: Targets{File: "sites.yaml", Sites: 5}}, fiveSites(), []int{0, 1, 2, 3, 4})
	var b bytes.Buffer
	if err := s.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	testkit.ValidXML(t, b.Bytes(), filepath.Join("..", "..", "report", "testdata", "junit.xsd"))
	var doc struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, su := range doc.Suites {
		names = append(names, su.Name)
	}
	if strings.Join(names, " ") != "alpha bravo down delta echo" {
		t.Errorf("test suites %v", names)
	}
	if c := doc.Suites[1].Cases[0]; c.Failure == nil || !strings.Contains(c.Name, "TAG-GET-404") {
		t.Errorf("bravo's first case: %+v", c)
	}
	if cs := doc.Suites[2].Cases; len(cs) != 1 || cs[0].Error == nil {
		t.Errorf("the site that cannot be checked: %+v", cs)
	}
	if len(doc.Suites[3].Cases) != 2 {
		t.Errorf("delta: %d cases, want 2 (its not-testable rule left out)", len(doc.Suites[3].Cases))
	}
}

func TestHTMLOneRowPerSite(t *testing.T) {
	s := collect(t, Fleet{Targets: Targets{File: "sites.yaml", Sites: 5}}, fiveSites(), []int{0, 1, 2, 3, 4})
	var b bytes.Buffer
	if err := s.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<tr id="site-alpha">`, `href="sites/bravo/report.html"`, `class="chip failed"`, "TAG-GET-404",
		"CANNOT BE CHECKED", ".chip.passed", `href="#site-bravo"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Count(page, `<tr id="site-`) != 5 {
		t.Errorf("%d site rows, want 5", strings.Count(page, `<tr id="site-`))
	}
	if strings.Contains(page, "<&>") {
		t.Error("a failure's text is not escaped")
	}
}

func TestConsoleNamesSitesAndRules(t *testing.T) {
	s := collect(t, Fleet{Targets: Targets{File: "sites.yaml", Sites: 5}}, fiveSites(), []int{0, 1, 2, 3, 4})
	var b bytes.Buffer
	if err := s.WriteConsole(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Fleet of 5 sites: 2 passed, 1 broke rules, 1 cannot be checked, 1 could not finish",
		"TAG-GET-404", "1 site: bravo", "down", "CANNOT BE CHECKED", "(exit 3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("console lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "alpha ") {
		t.Errorf("console lists a site that passed among those that did not:\n%s", out)
	}
}
