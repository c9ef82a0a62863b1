package marker

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestIsRunMarked(t *testing.T) {
	m := Of(NewRunID(time.Date(2026, 11, 21, 23, 50, 0, 0, time.UTC)), "child")
	cases := []struct {
		key  string
		want bool
	}{
		{m, true},
		{"parent/" + m, false}, // a marked child of a person's page: never ours to delete
		{strings.ToUpper(m[:1]) + m[1:], true},
		{m + "/x", true},
		{"conformance-testing", false},    // a person's page
		{"conformance-2026-notes", false}, // close, but not our shape
		{"about/conformance-testing-guide", false},
		{"", false},
	}
	for _, c := range cases {
		if got := IsRunMarked(c.key); got != c.want {
			t.Errorf("IsRunMarked(%q) = %v, want %v", c.key, got, c.want)
		}
	}
}

func TestHasRunMarker(t *testing.T) {
	run := NewRunID(time.Now())
	other := NewRunID(time.Now().Add(-time.Hour))
	for key, want := range map[string]bool{
		Of(run, "a"):                    true,
		strings.ToUpper(Of(run, "a")):   true,
		Of(run, "a") + "/child":         true,
		"parent/" + Of(run, "a"):        false,
		Of(other, "a"):                  false,
		"conformance-" + run[:8] + "-a": false,
	} {
		if got := HasRunMarker(key, run); got != want {
			t.Errorf("HasRunMarker(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestCleanupNeedsNoTestFramework keeps `conformance cleanup` a plain HTTP
// client: neither it nor this package may pull in Ginkgo or Gomega.
func TestCleanupNeedsNoTestFramework(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list dependencies with")
	}
	for _, pkg := range []string{"../cleanup", "."} {
		out, err := exec.Command(goTool, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "github.com/onsi/") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
