package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ValidXML checks doc with xmllint against the XML schema at xsd (the
// JUnit schema strict consumers use: internal/report/testdata/junit.xsd).
// CI must have xmllint (.ci/run installs it); elsewhere its absence only
// skips the check, and says so.
func ValidXML(t testing.TB, doc []byte, xsd string) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Error("xmllint is not installed (Debian package libxml2-utils; .ci/run installs it): CI must run the real validator")
		}
		t.Log("xmllint not installed: the document is not checked against " + xsd)
		return
	}
	path := filepath.Join(t.TempDir(), "doc.xml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "--noout", "--schema", xsd, path).CombinedOutput(); err != nil {
		t.Errorf("xmllint refuses the document against %s: %v\n%s", xsd, err, out)
	}
}
