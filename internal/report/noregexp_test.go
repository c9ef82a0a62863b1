package report

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// regexpAllowed are the files of this package that may use regexp, and
// why: none of them reads failure text.
var regexpAllowed = map[string]string{
	// The run's own --focus/--skip patterns, matched against spec names the
	// way Ginkgo matches them (selection).
	"model.go": "the run's --focus and --skip patterns",
	// Masks the values in a Fact's words (Got, Expected: data, not the
	// rendered message) so that one problem with different values is one
	// cause.
}

// The report reads what a failure means from data (verdict.Fact,
// verdict.Exchange), never by matching its rendered text: no file of this
// package imports regexp but those above.
func TestNoRegexpOverFailureText(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "regexp" && regexpAllowed[name] == "" {
				t.Errorf("%s imports regexp: read failures from their facts (internal/verdict) instead", name)
			}
		}
	}
}
