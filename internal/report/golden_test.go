package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/testkit"
)

// Times that are not part of the fixture (a wall clock leaking into a
// report) are masked, so a golden file only changes when a writer does.
var (
	clockTime = regexp.MustCompile(`\b20\d\d-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d| UTC)`)
	fixedTime = regexp.MustCompile(`^2026-03-14[T ]09:26:53(?:Z| UTC)$`)
)

func normalise(b []byte) []byte {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = clockTime.ReplaceAllStringFunc(s, func(m string) string {
		if fixedTime.MatchString(m) {
			return m
		}
		return "<time>"
	})
	return []byte(s)
}

// golden compares got, its clock times masked, with testdata/name
// (testkit.Golden; -update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, name, normalise(got))
}

func render(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGoldenWriters(t *testing.T) {
	run := fixtureRun(t)
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"report.json.golden", func(b *bytes.Buffer) error { return run.WriteJSON(b) }},
		{"report.junit.xml.golden", func(b *bytes.Buffer) error { return run.WriteJUnit(b) }},
		{"report.md.golden", func(b *bytes.Buffer) error { return run.WriteMarkdown(b) }},
		{"report.html.golden", func(b *bytes.Buffer) error { return run.WriteHTML(b) }},
		{"summary.txt.golden", func(b *bytes.Buffer) error { run.WriteSummary(b); return nil }},
	} {
		t.Run(tc.file, func(t *testing.T) { golden(t, tc.file, render(t, tc.write)) })
	}
}

func TestGoldenLegacyReport(t *testing.T) {
	run := legacyRun(t)
	if run.Diagnosis == nil {
		t.Fatal("the legacy fixture was not diagnosed")
	}
	golden(t, "legacy.md.golden", render(t, func(b *bytes.Buffer) error { return run.WriteMarkdown(b) }))
	golden(t, "legacy-summary.txt.golden", render(t, func(b *bytes.Buffer) error { run.WriteSummary(b); return nil }))
	golden(t, "legacy.html.golden", render(t, func(b *bytes.Buffer) error { return run.WriteHTML(b) }))
	golden(t, "legacy.junit.xml.golden", render(t, func(b *bytes.Buffer) error { return run.WriteJUnit(b) }))
}

// The JSON report is the input of diff and --rerun-failed: it must read
// back into the same run.
func TestJSONRoundTrip(t *testing.T) {
	run := fixtureRun(t)
	first := render(t, func(b *bytes.Buffer) error { return run.WriteJSON(b) })
	back, err := ReadJSON(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if again := render(t, func(b *bytes.Buffer) error { return back.WriteJSON(b) }); !bytes.Equal(first, again) {
		t.Fatalf("the JSON report does not read back into the same run:\n%s", testkit.LineDiff(string(first), string(again)))
	}
}
