package reads

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// kit carries the target and what the container's setup could not prepare
// (reasons shown when a spec cannot check its rule). The read specs and their
// helpers hang off it.
type kit struct {
	t     *framework.Fixture
	notes *[]string
}

// note records a setup problem.
func (k kit) note(format string, args ...any) {
	*k.notes = append(*k.notes, fmt.Sprintf(format, args...))
}

// lacking is the reason for a rule left unchecked because the target has no
// data of some kind: why the run did not (or could not) create it.
func (k kit) lacking(what string) string {
	reason := "the target has " + what
	switch {
	case !k.t.CanWrite():
		reason += ", and this run may not create pages (read-only run or no --auth-token)"
	case len(*k.notes) > 0:
		reason += ", and preparing it failed: " + strings.Join(*k.notes, "; ")
	default:
		reason += ", even after this run created pages for the check"
	}
	return reason
}

// aboutExchanges renders a failure description: the expectation, then the
// exchanges it is about (already redacted by the client).
func aboutExchanges(format string, args []any, exs ...*client.Exchange) func() string {
	return func() string {
		var b strings.Builder
		b.WriteString(fmt.Sprintf(format, args...))
		for i, ex := range exs {
			if ex == nil {
				continue
			}
			if i == 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\ncompared with:\n")
			}
			b.WriteString(ex.String())
		}
		return b.String()
	}
}

// about is aboutExchanges for one exchange.
func (k kit) about(ex *client.Exchange, format string, args ...any) func() string {
	return aboutExchanges(format, args, ex)
}

// about2 is aboutExchanges for an exchange judged against a reference one.
func (k kit) about2(ex, ref *client.Exchange, format string, args ...any) func() string {
	return aboutExchanges(format, args, ex, ref)
}

// list sends GET /api/pages with q and expects 200 with a data array.
func (k kit) list(ctx context.Context, q url.Values) *client.Exchange {
	ex := k.t.Read(ctx, framework.PagesPath, q)
	if ex.Truncated {
		framework.NotChecked("the answer to %s is larger than the read limit (--max-body)", ex.RequestLine())
	}
	ExpectWithOffset(1, ex).To(framework.HaveHTTPStatus(http.StatusOK))
	ExpectWithOffset(1, ex.Get("data").IsArray()).To(BeTrue(), k.about(ex, "data is an array of page objects"))
	return ex
}

// integer reads a member that must be an integer (spec 4.1 list envelope).
func (k kit) integer(ex *client.Exchange, path string) int {
	r := ex.Get(path)
	ok := r.Type == gjson.Number && r.Num == math.Trunc(r.Num)
	ExpectWithOffset(1, ok).To(BeTrue(), k.about(ex, "%s is an integer; it is %s", path, framework.JSONText(r)))
	return int(r.Num)
}

// boolean reads a member that must be a boolean.
func (k kit) boolean(ex *client.Exchange, path string) bool {
	r := ex.Get(path)
	ok := r.Type == gjson.True || r.Type == gjson.False
	ExpectWithOffset(1, ok).To(BeTrue(), k.about(ex, "%s is a boolean; it is %s", path, framework.JSONText(r)))
	return r.Bool()
}

// total is the number of pages matching the type filters of q: the list's
// meta.total when it is an integer, otherwise (PAGE-LIST-SHAPE's concern)
// the number of pages a full listing holds.
func (k kit) total(ctx context.Context, q url.Values) int {
	ex := k.list(ctx, q)
	if r := ex.Get("meta.total"); r.Type == gjson.Number && r.Num == math.Trunc(r.Num) {
		return int(r.Num)
	}
	items, _ := k.everything(ctx, q)
	return len(items)
}

// everything is Fixture.ListAllPages for a spec: it reports the rule not
// checked when the reference listing cannot be had.
func (k kit) everything(ctx context.Context, q url.Values) ([]gjson.Result, *client.Exchange) {
	items, ex, problem := k.t.ListAllPages(ctx, q)
	if problem != "" {
		framework.NotChecked("%s", problem)
	}
	return items, ex
}

// everyPage is the listing of every type for a spec; a target with no page
// at all leaves the rule not checked.
func (k kit) everyPage(ctx context.Context) ([]gjson.Result, *client.Exchange) {
	items, ex := k.everything(ctx, framework.EveryTypeQuery())
	if len(items) == 0 {
		framework.NotChecked("the target has no page at all")
	}
	return items, ex
}

// childPage is the first child page (key parent/child) the target lists;
// without one the rule is not checked.
func (k kit) childPage(ctx context.Context) gjson.Result {
	items, _ := k.everything(ctx, framework.EveryTypeQuery())
	child, ok := framework.FirstChildPage(items)
	if !ok {
		framework.NotChecked("%s", k.lacking("no child page (key parent/child)"))
	}
	return child
}
