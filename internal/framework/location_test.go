package framework

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// callerLocation names the frame types.NewCodeLocation names, at every
// depth and from a generic function (prepareAt) too.
func TestCallerLocation(t *testing.T) {
	for skip := 0; skip < 3; skip++ {
		if got, want := bothLocations(skip); got != want {
			t.Errorf("skip %d: callerLocation gives %s, types.NewCodeLocation %s", skip, got, want)
		}
	}
	if got, want := bothLocationsOf[int](1); got != want {
		t.Errorf("from a generic function: callerLocation gives %s, types.NewCodeLocation %s", got, want)
	}
}

func bothLocations(skip int) (got, want types.CodeLocation) {
	return callerLocation(skip), types.NewCodeLocation(skip)
}

// bothLocationsOf is bothLocations in a generic function, as prepareAt is.
func bothLocationsOf[T any](skip int) (got, want types.CodeLocation) {
	return callerLocation(skip), types.NewCodeLocation(skip)
}
