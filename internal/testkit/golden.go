package testkit

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `go test ./<package> -update` rewrites the package's golden files from
// the current output; review the diff before committing it.
var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// Golden compares got with testdata/name; with -update it rewrites the
// file. A mismatch writes testdata/name.actual (git-ignored) for a diff
// tool and fails with the first differing lines.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
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
		t.Fatalf("%v (go test with -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		_ = os.Remove(path + ".actual")
		return
	}
	if err := os.WriteFile(path+".actual", got, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Errorf("%s differs from the golden file (wrote %s.actual; -update accepts it):\n%s", name, path, LineDiff(string(want), string(got)))
}

// LineDiff shows the lines that differ (- want, + got), from a
// longest-common-subsequence alignment so an inserted line shows as one;
// at most 30 lines.
func LineDiff(want, got string) string {
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
