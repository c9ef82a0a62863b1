package framework

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/ledger"
)

func TestLedgerFollowsRenamesAndRemovals(t *testing.T) {
	var l ledger.Ledger
	l.AddPage("a")
	l.AddPage("b")
	l.RenamePage("a", "a2")
	l.RenamePage("zzz", "never") // not ours: ignored
	l.RemovePage("b")
	if got := l.Pages(); len(got) != 1 || got[0] != "a2" {
		t.Fatalf("pages = %v, want [a2]", got)
	}
}

func TestUnknownRuleIsRecordedAsBug(t *testing.T) {
	c, _ := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "tok-en-value"})
	tg := New(c, Options{})
	if tg.It("NO-SUCH-RULE", nil) {
		t.Fatal("It registered a spec for an unknown rule")
	}
	if tg.It("GEN-EVENTS", nil); len(tg.Bugs()) != 2 {
		t.Fatalf("bugs = %v, want unknown rule and not-testable rule", tg.Bugs())
	}
}
