package framework

import (
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

func TestMarkerAndIsRunMarked(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "tok-en-value"})
	if err != nil {
		t.Fatal(err)
	}
	tg := New(c, Options{RunID: NewRunID(time.Date(2026, 11, 21, 23, 50, 0, 0, time.UTC))})
	m := tg.Marker("child")
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

func TestLedgerFollowsRenamesAndRemovals(t *testing.T) {
	var l Ledger
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
