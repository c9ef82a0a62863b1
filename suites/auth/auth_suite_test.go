package auth_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/suites/auth"
)

// readOnlyChildEnv, when set, makes TestAuth the read-only run of
// TestReadOnlyRun instead of the ordinary one.
const readOnlyChildEnv = "CONFORMANCE_AUTH_READ_ONLY_CHILD"

// brokenChildEnv, when set, makes TestAuth the run of TestBrokenServer.
const brokenChildEnv = "CONFORMANCE_AUTH_BROKEN_CHILD"

// cutChildEnv, when set, makes TestAuth the run of TestCutRefusals.
const cutChildEnv = "CONFORMANCE_AUTH_CUT_CHILD"

// notFoundChildEnv, when set, makes TestAuth the run of
// TestReadOnlyMissingPages404.
const notFoundChildEnv = "CONFORMANCE_AUTH_404_CHILD"

// TestAuth runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the run left the
// target's content as it found it: the refused writes this area sends must
// have changed nothing, and what they made on a broken server must have
// been removed. RunSpecs runs once per process, so the snapshots are taken
// around it.
func TestAuth(t *testing.T) {
	if os.Getenv(readOnlyChildEnv) != "" {
		frameworktest.ReadOnlyRun(t, "auth, read-only", auth.Register)
		return
	}
	if os.Getenv(brokenChildEnv) != "" {
		brokenRun(t)
		return
	}
	if os.Getenv(cutChildEnv) != "" {
		cutRun(t)
		return
	}
	if os.Getenv(notFoundChildEnv) != "" {
		notFoundRun(t)
		return
	}
	RegisterFailHandler(Fail)
	target, snapshot := frameworktest.FixtureAndSnapshot(t)
	before := takeSnapshot(t, snapshot, "before")
	framework.Install(target)
	auth.Register(target)
	RunSpecs(t, "auth")
	after := takeSnapshot(t, snapshot, "after")
	if diff := before.Diff(after); len(diff) > 0 {
		t.Errorf("the run changed the target's content (%d differences):\n  %s", len(diff), strings.Join(diff, "\n  "))
	}
}

func takeSnapshot(t *testing.T, snapshot func(context.Context) (frameworktest.Snapshot, error), when string) frameworktest.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot %s the run: %v", when, err)
	}
	return s
}

// TestReadOnlyRun runs the auth specs as a --read-only run would, in a
// child process, and fails if any request other than a GET carried the
// authentication token, or if a spec not marked as writing tried to write.
func TestReadOnlyRun(t *testing.T) {
	frameworktest.RunChild(t, "TestAuth", readOnlyChildEnv, "the read-only run")
}

// TestBrokenServer runs the auth specs with settings writes against a
// reference server that carries out the writes it refuses, in a child
// process, and fails if the run left the content or the settings changed,
// or did not say that it restored the settings.
func TestBrokenServer(t *testing.T) {
	frameworktest.RunChild(t, "TestAuth", brokenChildEnv, "the run against a broken server")
}

// brokenRun is the child of TestBrokenServer: the refused writes its specs
// send are carried out, so every one of them must be undone.
func brokenRun(t *testing.T) {
	cfg := frameworktest.Reference(t, "refused-write-applies")
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReadOnly = true
	snap, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	snapshot := func(ctx context.Context) (frameworktest.Snapshot, error) {
		return frameworktest.TakeSnapshot(ctx, snap)
	}
	before := takeSnapshot(t, snapshot, "before")
	if before["GET /api/settings"] == "" {
		t.Fatal("the snapshot holds no settings: the comparison would prove nothing")
	}
	target := framework.New(c, framework.Options{SettingsWrites: true})
	RegisterFailHandler(Fail)
	framework.Install(target)
	auth.Register(target)
	RunSpecs(ignoreFailures{}, "auth against a server that carries out refused writes")
	if diff := before.Diff(takeSnapshot(t, snapshot, "after")); len(diff) > 0 {
		t.Errorf("the run changed the target's content (%d differences):\n  %s", len(diff), strings.Join(diff, "\n  "))
	}
	if p := target.Ledger.Problems(); len(p) > 0 {
		t.Errorf("teardown problems: %q", p)
	}
	restored := false
	for _, s := range target.Ledger.Settings() {
		restored = restored || strings.Contains(s, "restored and verified")
	}
	if !restored {
		t.Errorf("no settings change was restored (the server applies refused PUTs): %q", target.Ledger.Settings())
	}
}

// ignoreFailures is the GinkgoTestingT of a run whose specs fail on
// purpose.
type ignoreFailures struct{}

func (ignoreFailures) Fail() {}

// TestReadOnlyMissingPages404 runs the auth specs read-only against a
// reference server that answers a write to a missing page 404 before
// looking at the authentication token (the spec allows either order), in
// a child process. The only write-auth requests a read-only run sends name
// missing pages, so every answer is 404, which shows nothing of 5.5: the
// write-auth rules must be not checked, never passed.
func TestReadOnlyMissingPages404(t *testing.T) {
	frameworktest.RunChild(t, "TestAuth", notFoundChildEnv, "the read-only run against a server that answers 404 first")
}

// notFoundRun is the child of TestReadOnlyMissingPages404.
func notFoundRun(t *testing.T) {
	cfg := frameworktest.Reference(t, reference.Benign404BeforeAuth)
	cfg.ReadOnly = true
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{ReadOnly: true})
	status := runAuth(t, target, "auth, read-only, 404 before 401")
	for _, id := range []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"} {
		if status[id] != report.NotChecked {
			t.Errorf("%s is %s, want not checked: every write-auth probe of a read-only run names a missing page, "+
				"and each was answered 404", id, status[id])
		}
	}
}

// runAuth runs the auth specs on target and returns each rule's status;
// a failed rule fails t.
func runAuth(t *testing.T, target *framework.Fixture, description string) map[string]report.Status {
	t.Helper()
	RegisterFailHandler(Fail)
	framework.Install(target)
	auth.Register(target)
	RunSpecs(ignoreFailures{}, description)
	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	status := map[string]report.Status{}
	for _, r := range run.Rules {
		status[r.ID] = r.Status
		if r.Status == report.Failed {
			t.Errorf("%s failed:\n%s", r.ID, failedSpecs(run, r))
		}
	}
	return status
}
