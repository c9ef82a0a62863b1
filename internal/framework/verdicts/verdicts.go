// Package verdicts writes a spec's outcome into the Ginkgo report as data
// (internal/verdict), next to the text people read: why a rule was not
// checked, what a failed expectation saw, and the exchanges of a failing
// spec.
package verdicts

import (
	"fmt"
	"net/url"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// NotChecked stops the current spec and reports its rule as not checked,
// with the reason (e.g. the target has no draft page to look at).
func NotChecked(format string, args ...any) {
	NotCheckedAt(fmt.Sprintf(format, args...), 2)
}

// NotCheckedAt is NotChecked for a helper of a spec: skip counts the frames
// above the caller to name as the location.
func NotCheckedAt(reason string, skip int) {
	Skip(verdict.NotChecked{Reason: reason}, skip+1)
}

// Skip records n and stops the current spec; skip counts the
// frames above the caller to name as its location.
func Skip(n verdict.NotChecked, skip int) {
	AddEntry(verdict.EntryNotChecked, n)
	ginkgo.Skip(n.String(), skip)
}

// RecordFact adds what a failed expectation saw to the current spec.
func RecordFact(f verdict.Fact) { AddEntry(verdict.EntryFact, f) }

// AddEntry adds a report entry no reporter prints (the text beside it says
// the same) to the running spec; outside a spec (a matcher used in a plain
// test) there is no spec to add it to, and nothing is recorded.
func AddEntry(name string, value any) {
	if ginkgo.CurrentSpecReport().LeafNodeType != types.NodeTypeIt {
		return
	}
	ginkgo.AddReportEntry(name, value, ginkgo.ReportEntryVisibilityNever)
}

// FactOf is the fact of an expectation on ex that failed.
func FactOf(ex *client.Exchange, expected, got, field string) verdict.Fact {
	f := verdict.Fact{Expected: expected, Got: got, Field: field}
	if ex != nil {
		f.Status, f.Seq = ex.Status, ex.Seq
	}
	return f
}

// redactSlack is how far past verdict.MaxBody a body is redacted before it
// is cut, so that a token straddling the cut is replaced whole.
const redactSlack = 1024

// ExchangeData is ex as data for the report: the start of its body,
// redacted (a body cut by --max-body can be megabytes long).
func ExchangeData(ex *client.Exchange, redact func(string) string) verdict.Exchange {
	out := verdict.Exchange{Seq: ex.Seq, Method: ex.Method, Status: ex.Status, Cut: ex.Truncated || ex.BodyCut}
	if u, err := url.Parse(ex.URL); err == nil {
		out.Path, out.Query = u.EscapedPath(), redact(u.RawQuery)
	}
	// Of an answer read as a stream, its envelope as received with the
	// streamed array empty (Exchange.Streamed): what the report's causes
	// read the envelope's fields from.
	body := ex.Body()
	if len(body) > verdict.MaxBody {
		body, out.Cut = body[:verdict.MaxBody+min(redactSlack, len(body)-verdict.MaxBody)], true
	}
	out.Body = redact(string(body))
	if len(out.Body) > verdict.MaxBody {
		out.Body = out.Body[:verdict.MaxBody]
	}
	return out
}
