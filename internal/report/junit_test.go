package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// junitElement is what testdata/junit.xsd allows of one element; the Go
// check below applies it without a validator, xmllint (when installed)
// applies the schema itself.
type junitElement struct {
	attrs, required, children []string
}

var junitShape = map[string]junitElement{
	"testsuites": {attrs: []string{"name", "tests", "failures", "errors", "time"}, children: []string{"testsuite"}},
	"testsuite": {attrs: []string{"name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname", "id", "package"},
		required: []string{"name", "tests", "failures", "errors", "time", "timestamp", "hostname"},
		children: []string{"properties", "testcase", "system-out", "system-err"}},
	"properties": {children: []string{"property"}},
	"property":   {attrs: []string{"name", "value"}, required: []string{"name", "value"}},
	"testcase": {attrs: []string{"name", "classname", "time"}, required: []string{"name", "classname", "time"},
		children: []string{"skipped", "error", "failure", "system-out", "system-err"}},
	"skipped":    {attrs: []string{"message", "type"}},
	"error":      {attrs: []string{"message", "type"}},
	"failure":    {attrs: []string{"message", "type"}},
	"system-out": {},
	"system-err": {},
}

var junitValue = map[string]*regexp.Regexp{
	"time":      regexp.MustCompile(`^\d+(\.\d{1,3})?$`),
	"timestamp": regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`),
	"tests":     regexp.MustCompile(`^\d+$`), "failures": regexp.MustCompile(`^\d+$`),
	"errors": regexp.MustCompile(`^\d+$`), "skipped": regexp.MustCompile(`^\d+$`),
	"hostname": regexp.MustCompile(`\S`),
}

// junitProblems checks a JUnit document against junitShape and returns
// what breaks it.
func junitProblems(doc []byte) []string {
	var problems []string
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var stack []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return append(problems, "not XML: "+err.Error())
		}
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			where := strings.Join(append(slices.Clone(stack), name), ">")
			shape, known := junitShape[name]
			switch {
			case !known:
				problems = append(problems, where+": unknown element")
			case len(stack) == 0 && name != "testsuites":
				problems = append(problems, where+": the root is not testsuites")
			case len(stack) > 0 && !slices.Contains(junitShape[stack[len(stack)-1]].children, name):
				problems = append(problems, where+": not allowed here")
			}
			seen := map[string]bool{}
			for _, a := range el.Attr {
				seen[a.Name.Local] = true
				if !slices.Contains(shape.attrs, a.Name.Local) {
					problems = append(problems, fmt.Sprintf("%s@%s: attribute not allowed", where, a.Name.Local))
				} else if re := junitValue[a.Name.Local]; re != nil && !re.MatchString(a.Value) {
					problems = append(problems, fmt.Sprintf("%s@%s=%q: malformed", where, a.Name.Local, a.Value))
				}
			}
			for _, r := range shape.required {
				if !seen[r] {
					problems = append(problems, fmt.Sprintf("%s@%s: required attribute missing", where, r))
				}
			}
			stack = append(stack, name)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return problems
}

// xmllintProblems validates doc with xmllint against testdata/junit.xsd;
// ok is false when xmllint is not installed.
func xmllintProblems(t *testing.T, doc []byte) (problems string, ok bool) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		return "", false
	}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), path).CombinedOutput()
	if err != nil {
		return string(out), true
	}
	return "", true
}

// The report of before this check (properties in each testcase, a
// skipped count on testsuites, no timestamp or hostname, times in
// nanosecond digits): both checks must refuse it, or they prove nothing.
const oldJUnit = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="conformance" tests="1" failures="1" errors="0" skipped="0" time="1.711717322">
  <testsuite name="pages" tests="1" failures="1" errors="0" skipped="0" time="0.09983092999999994">
    <testcase name="[PAGE-GET-404] x" classname="conformance.pages" time="0.003">
      <properties><property name="rule" value="PAGE-GET-404"></property></properties>
      <failure message="Expected" type="rule failed">x</failure>
    </testcase>
  </testsuite>
</testsuites>
`

func TestJUnitChecksRefuseTheOldReport(t *testing.T) {
	problems := strings.Join(junitProblems([]byte(oldJUnit)), "\n")
	for _, want := range []string{"testsuites@skipped", "testsuite@timestamp", "testsuite@hostname", "testsuite@time=", "testcase>properties"} {
		if !strings.Contains(problems, want) {
			t.Errorf("the Go check misses %s in the old report; it found:\n%s", want, problems)
		}
	}
	if out, ok := xmllintProblems(t, []byte(oldJUnit)); ok && out == "" {
		t.Error("xmllint accepts the old report against testdata/junit.xsd")
	}
}

func TestJUnitStrictConsumersAcceptIt(t *testing.T) {
	for name, run := range map[string]*Run{"fixture": fixtureRun(t), "legacy": legacyRun(t)} {
		t.Run(name, func(t *testing.T) {
			doc := render(t, func(b *bytes.Buffer) error { return run.WriteJUnit(b) })
			for _, p := range junitProblems(doc) {
				t.Error(p)
			}
			if out, ok := xmllintProblems(t, doc); !ok && os.Getenv("CI") != "" {
				t.Error("xmllint is not installed (Debian package libxml2-utils; .ci/run installs it): CI must run the real validator")
			} else if !ok {
				t.Log("xmllint not installed: checked by the Go check only")
			} else if out != "" {
				t.Errorf("xmllint refuses the report:\n%s", out)
			}
			var parsed junitSuites
			if err := xml.Unmarshal(doc, &parsed); err != nil {
				t.Fatal(err)
			}
			for _, s := range parsed.Suites {
				for _, c := range s.Cases {
					if !regexp.MustCompile(`\[[A-Z][A-Z0-9]*(-[A-Z0-9]+)+`).MatchString(c.Name) {
						t.Errorf("testcase %q does not name its rule", c.Name)
					}
					if f := c.Failure; f != nil && (len([]rune(f.Message)) > 200 || strings.Contains(f.Message, "\n") || strings.Contains(f.Message, "<float64>")) {
						t.Errorf("failure message is not one short line of words: %q", f.Message)
					}
				}
			}
		})
	}
}

// failure@message says what was got, not only what was expected.
func TestJUnitFailureMessageSaysWhatWasGot(t *testing.T) {
	doc := string(render(t, func(b *bytes.Buffer) error { return fixtureRun(t).WriteJUnit(b) }))
	for _, want := range []string{
		`message="Expected: HTTP 404 with a handler-error body (status &#34;1&#34;, message a string); Got: HTTP 200"`,
		`message="Got: 200; Expected it to equal 404"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the JUnit report lacks %s", want)
		}
	}
}

// A body may hold any byte and "]]>": the file stays XML.
func TestJUnitHostileBody(t *testing.T) {
	r := &Run{Specs: []SpecResult{{Name: "[A-B] x", Rules: []string{"A-B"}, Area: "pages", Status: Failed,
		Message: "Expected: HTTP 404\nGot: HTTP 200\n\nrequest:  GET /x\nresponse: 200 OK\n          body: \x01\x1b[31m]]><x>\ufffe\n"}}}
	doc := render(t, func(b *bytes.Buffer) error { return r.WriteJUnit(b) })
	var parsed junitSuites
	if err := xml.Unmarshal(doc, &parsed); err != nil {
		t.Fatalf("not XML: %v\n%s", err, doc)
	}
	if got := parsed.Suites[0].Cases[0].Failure.Text; !strings.Contains(got, "]]><x>") {
		t.Errorf("the body did not survive: %q", got)
	}
}
