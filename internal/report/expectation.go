package report

import (
	"strings"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// A failure message ends, when a suite used a plain Gomega matcher, in
// Gomega's rendering of the values, Go types included ("Expected\n
// <[]string | len:27, cap:32>: [...]\nto be empty"). The framework records
// such a failure as a verdict.Fact with the words for it and the rendering
// it stands for (Fact.Rendered); the reports show the words in its place.
// The JSON report keeps each message exactly as Ginkgo gave it.

// readableMessage splits a spec's failure into the expectation (what the
// matcher or Gomega said, in words) and the exchanges printed with it.
func readableMessage(s SpecResult) (expectation string, exchanges []string) {
	msg := s.Message
	for _, f := range s.Facts {
		if f.Rendered != "" {
			msg = strings.Replace(msg, f.Rendered, inWords(f), 1)
		}
	}
	return splitMessage(msg)
}

// inWords is a plain Gomega failure in words: what was got, then what
// was expected of it.
func inWords(f verdict.Fact) string {
	return "Got: " + f.Got + "\nExpected " + f.Expected
}

// failureSummary is a failure in one short line, for JUnit's
// failure@message: the suite's words up to what was got.
func failureSummary(expectation string) string {
	var lines []string
	for _, l := range strings.Split(expectation, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	// withValue joins a label ending in ":" with the line after it.
	withValue := func(i int) (string, int) {
		if strings.HasSuffix(lines[i], ":") && i+1 < len(lines) {
			v := strings.TrimPrefix(lines[i+1], "- ")
			if v == "[" && i+2 < len(lines) { // a list, one item a line
				v += lines[i+2] + " …]"
			}
			return lines[i] + " " + v, i + 2
		}
		return lines[i], i + 1
	}
	var keep []string
	for i := 0; i < len(lines) && len(keep) < 3; i++ {
		if !strings.HasPrefix(lines[i], "Got:") && !strings.HasSuffix(lines[i], " found:") {
			keep = append(keep, lines[i])
			continue
		}
		got, next := withValue(i)
		keep = append(keep, got)
		if next < len(lines) && strings.HasPrefix(lines[next], "Expected it ") {
			want, _ := withValue(next)
			keep = append(keep, want)
		}
		break
	}
	return clipRunes(strings.Join(keep, "; "), 200)
}

// clipRunes cuts s to at most n characters, marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
