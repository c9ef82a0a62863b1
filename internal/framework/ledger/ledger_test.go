package ledger

import (
	"slices"
	"testing"
)

// TestUploadsListedInOneOrder: uploads recorded in whatever order side by
// side prepares were answered are listed the same way in every run.
func TestUploadsListedInOneOrder(t *testing.T) {
	want := []string{"file a-1-older.txt on page p", "file a-2-newer.txt on page p", "probe b.php accepted"}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		var l Ledger
		for _, i := range order {
			l.AddUpload(want[i])
		}
		if got := l.Uploads(); !slices.Equal(got, want) {
			t.Errorf("recorded in order %v, listed %v, want %v", order, got, want)
		}
	}
}
