package reference

import (
	"reflect"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

// A size gives the same site every time: nothing generated depends on the
// clock (a scheduled page's date is fixed, far in the future).
func TestGeneratedSiteIsTheSameEveryTime(t *testing.T) {
	var first, second fixtures.Seed
	GeneratedSite(300)(&first)
	GeneratedSite(300)(&second)
	if !reflect.DeepEqual(first, second) {
		t.Fatal("two sites of the same size differ")
	}
	scheduled := 0
	for i, p := range first.Pages {
		if p.Type != "scheduled" {
			continue
		}
		scheduled++
		if want := scheduledFrom.Add(time.Duration(i) * time.Minute).Format(dateLayout); p.Date != want {
			t.Errorf("scheduled page %s dated %s, want %s", p.Key, p.Date, want)
		}
		if at, err := time.Parse(dateLayout, p.Date); err != nil || at.Year() < 2099 {
			t.Errorf("scheduled page %s dated %s: not in the fixed far future (%v)", p.Key, p.Date, err)
		}
	}
	if scheduled == 0 {
		t.Fatalf("no scheduled page among %d", len(first.Pages))
	}
}
