package suites

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Suites hold no concurrency of their own: the framework and the client
// decide what goes out side by side, what waits for what, and which
// requests may be on the wire together (a write is alone there). A
// goroutine, a channel or a lock in a rule's code could send requests the
// client never ordered, or wait without giving up its place among the
// prepares. TestSuitesHoldNoConcurrency reads every non-test Go file under
// suites/ and names each such construct it finds.

// useTheFramework is what a suite author reads on a finding.
const useTheFramework = "suites hold no goroutines, channels, select, locks or waits of their own: " +
	"use the framework (framework.Prepare and Share for work side by side, framework.After to order prepares, " +
	"Fixture.All for independent requests side by side, Group.GuardCreates for refused creates, " +
	"framework.Collector for values gathered from several goroutines, framework.SleepUntil for a gap in time), " +
	"or add what is missing to internal/framework"

// forbiddenImports are packages whose only use in a suite would be
// concurrency of its own.
var forbiddenImports = []string{"sync", "sync/atomic", "golang.org/x/sync"}

// forbiddenCalls are functions that start work beside the caller or wait
// by hand, by package path and name.
var forbiddenCalls = map[string][]string{
	"time":    {"Sleep", "AfterFunc", "NewTimer", "NewTicker", "Tick", "After"},
	"context": {"AfterFunc"},
}

func TestSuitesHoldNoConcurrency(t *testing.T) {
	var files int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		src, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, f := range concurrencyIn(fset, src) {
			t.Errorf("suites/%s:%s", filepath.ToSlash(path), f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("read %d Go files under suites/: this proves nothing", files)
	}
	if t.Failed() {
		t.Log(useTheFramework)
	}
}

// concurrencyIn lists the concurrency constructs of f, parsed with fset,
// each as "line: what": go statements, select, channel types (make(chan)
// included), sends and receives, the forbidden imports and calls.
func concurrencyIn(fset *token.FileSet, f *ast.File) []string {
	var found []string
	at := func(n ast.Node, what string) {
		found = append(found, fmt.Sprintf("%d: %s", fset.Position(n.Pos()).Line, what))
	}
	local := map[string]string{} // local name of an imported package -> its path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		for _, bad := range forbiddenImports {
			if path == bad || strings.HasPrefix(path, bad+"/") {
				at(imp, fmt.Sprintf("imports %q", path))
			}
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		local[name] = path
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			at(n, "a go statement")
		case *ast.SelectStmt:
			at(n, "a select statement")
		case *ast.ChanType:
			at(n, "a channel type")
		case *ast.SendStmt:
			at(n, "a channel send")
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				at(n, "a channel receive")
			}
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok {
				for _, name := range forbiddenCalls[local[pkg.Name]] {
					if n.Sel.Name == name {
						at(n, fmt.Sprintf("%s.%s", local[pkg.Name], name))
					}
				}
			}
		}
		return true
	})
	return found
}

// TestConcurrencyIn: each construct the guard forbids is found in a
// source that has it (an import renamed, a channel only received from, a
// wait by time), and a source without any passes.
func TestConcurrencyIn(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"go statement", `func f() { go g() }`, "a go statement"},
		{"go func", `func f() { go func() {}() }`, "a go statement"},
		{"select", `func f(ctx context.Context) { select { default: } }`, "a select statement"},
		{"make(chan)", `func f() { _ = make(chan struct{}) }`, "a channel type"},
		{"receive-only parameter", `func f(done <-chan struct{}) {}`, "a channel type"},
		{"receive", `func f(ctx context.Context) { <-ctx.Done() }`, "a channel receive"},
		{"send", `func f(ch Sink) { ch <- 1 }`, "a channel send"},
		{"sync", `import "sync"` + "\nvar mu sync.Mutex", `imports "sync"`},
		{"sync renamed", `import s "sync"` + "\nvar mu s.Mutex", `imports "sync"`},
		{"atomic", `import "sync/atomic"` + "\nvar n atomic.Int64", `imports "sync/atomic"`},
		{"errgroup", `import "golang.org/x/sync/errgroup"` + "\nvar g errgroup.Group", `imports "golang.org/x/sync/errgroup"`},
		{"time.Sleep", `import "time"` + "\nfunc f() { time.Sleep(time.Second) }", "time.Sleep"},
		{"time renamed", `import tm "time"` + "\nfunc f() { tm.AfterFunc(0, nil) }", "time.AfterFunc"},
		{"context.AfterFunc", `import "context"` + "\nfunc f(ctx context.Context) { context.AfterFunc(ctx, nil) }", "context.AfterFunc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := parseAndFind(t, c.body)
			if !strings.Contains(strings.Join(found, "\n"), c.want) {
				t.Errorf("found %q in\n%s\nwant %q", found, c.body, c.want)
			}
		})
	}
	clean := `import ("context"; "time")` + "\n" +
		`func f(ctx context.Context, at time.Time) time.Duration { _ = ctx.Err(); return time.Until(at) }`
	if found := parseAndFind(t, clean); len(found) > 0 {
		t.Errorf("found %q in a source without concurrency:\n%s", found, clean)
	}
}

// parseAndFind is concurrencyIn of body, the rest of a file of package p.
func parseAndFind(t *testing.T, body string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package p\n"+body+"\n", parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%v in\n%s", err, body)
	}
	return concurrencyIn(fset, f)
}
