package frameworktest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
)

// snapshotTimeout bounds one snapshot (a few dozen GETs).
const snapshotTimeout = 30 * time.Second

// RunSuiteLeavingNoTrace is RunSuite for a suite package whose specs create
// content: it also proves that the run, writes included, left the target's
// content exactly as it found it. RunSpecs runs once per process, so the
// snapshots are taken here, around it.
func RunSuiteLeavingNoTrace(t *testing.T, area string, register func(*framework.Fixture)) {
	t.Helper()
	gomega.RegisterFailHandler(ginkgo.Fail)
	target, snapshot := FixtureAndSnapshot(t)
	before := takeSnapshot(t, snapshot, "before")
	framework.Install(target)
	register(target)
	ginkgo.RunSpecs(t, area)
	checkNoTrace(t, before, snapshot)
}

// takeSnapshot snapshots the target's content or stops the test.
func takeSnapshot(t *testing.T, snapshot func(context.Context) (Snapshot, error), when string) Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), snapshotTimeout)
	defer cancel()
	s, err := snapshot(ctx)
	if err != nil {
		t.Fatalf("leave no trace: snapshot %s the run: %v", when, err)
	}
	return s
}

// checkNoTrace proves that the run left the target's content as it found
// it: every page (all types, and each page read by key), the tag list and
// the category list read back exactly as before RunSpecs. It runs after
// RunSpecs has returned, so the specs' DeferCleanup and the suite's final
// sweep have both run.
func checkNoTrace(t *testing.T, before Snapshot, snapshot func(context.Context) (Snapshot, error)) {
	t.Helper()
	after := takeSnapshot(t, snapshot, "after")
	if diff := before.Diff(after); len(diff) > 0 {
		t.Errorf("leave no trace: the run changed the target's content (%d differences):\n  %s",
			len(diff), strings.Join(diff, "\n  "))
	}
	if n := len(before); n < 3 {
		t.Errorf("leave no trace: the snapshot holds only %d reads; it cannot prove anything", n)
	}
}
