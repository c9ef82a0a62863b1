package report

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// go test ./internal/report -update rewrites the golden files from the
// current output; review the diff before committing it.
var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

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

// golden compares got with testdata/name; with -update it rewrites the
// file. A mismatch writes testdata/name.actual (git-ignored) for a diff
// tool and fails with the first differing lines.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	got = normalise(got)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		_ = os.Remove(path + ".actual")
		return
	}
	if err := os.WriteFile(path+".actual", got, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("%s differs from the golden file (wrote %s.actual; -update accepts it):\n%s", name, path, lineDiff(string(want), string(got)))
}

// lineDiff shows the lines that differ (- golden, + actual), from a
// longest-common-subsequence alignment so an inserted line shows as one.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the LCS length of w[i:] and g[j:].
	lcs := make([][]int, len(w)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(g)+1)
	}
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(g) - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	shown := 0
	emit := func(sign string, n int, text string) bool {
		fmt.Fprintf(&b, "%s%4d %s\n", sign, n, text)
		shown++
		return shown < 30
	}
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			i, j = i+1, j+1
		case j < len(g) && (i == len(w) || lcs[i][j+1] >= lcs[i+1][j]):
			if !emit("+", j+1, g[j]) {
				return b.String() + "…\n"
			}
			j++
		default:
			if !emit("-", i+1, w[i]) {
				return b.String() + "…\n"
			}
			i++
		}
	}
	return b.String()
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
		t.Fatalf("the JSON report does not read back into the same run:\n%s", lineDiff(string(first), string(again)))
	}
}
