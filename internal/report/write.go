package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteJSON writes the run as indented JSON (the input of `conformance diff`
// and --rerun-failed).
func (r *Run) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(rd io.Reader) (*Run, error) {
	var r Run
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("not a conformance JSON report: %w", err)
	}
	return &r, nil
}

// String renders the duration.
func (d Duration) String() string { b, _ := d.MarshalText(); return string(b) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }
