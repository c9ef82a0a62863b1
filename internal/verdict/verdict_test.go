package verdict

import (
	"slices"
	"testing"
)

func TestUniq(t *testing.T) {
	if got := Uniq([]string{"b", "a", "b", "c", "a"}); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Errorf("Uniq = %q, want first appearances in order", got)
	}
	if got := Uniq[int](nil); len(got) != 0 {
		t.Errorf("Uniq(nil) = %v", got)
	}
}

func TestNotCheckedText(t *testing.T) {
	if got := (NotChecked{Reason: "no draft page"}).String(); got != "not checked: no draft page" {
		t.Errorf("String() = %q", got)
	}
}

func TestNoAssertion(t *testing.T) {
	n := NoAssertion()
	if !n.NoAssertion || n.Reason != ReasonNoAssertion || n.String() != NotCheckedPrefix+ReasonNoAssertion {
		t.Errorf("NoAssertion() = %+v", n)
	}
	if (NotChecked{Reason: "no draft page"}).NoAssertion {
		t.Error("a plain NotChecked says no assertion ran")
	}
}
