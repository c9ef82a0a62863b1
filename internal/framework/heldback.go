package framework

import (
	"errors"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
)

// SettingsNotSent is the error of a settings request not sent because
// settings writes were stopped (SettingsWritesStopped).
type SettingsNotSent struct{ Reason string }

func (e *SettingsNotSent) Error() string { return "not sent: " + e.Reason }

// settingsHeldBack reports whether ex is a settings request the run did
// not send because settings writes were stopped.
func settingsHeldBack(ex *client.Exchange) bool {
	var held *SettingsNotSent
	return errors.As(ex.Err, &held)
}

// heldBackSettings reports whether the failed spec of report failed on a
// settings request the run held back: one among its evidence, or, for a
// request a prepare sent (whose exchange another spec's evidence may have
// taken), the run's own reason quoted in its failure.
func (t *Fixture) heldBackSettings(report *types.SpecReport, evidence []*client.Exchange) bool {
	reason := t.SettingsWritesStopped()
	return reason != "" && (slices.ContainsFunc(evidence, settingsHeldBack) || strings.Contains(report.Failure.Message, reason))
}
