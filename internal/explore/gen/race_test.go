//go:build race

package gen_test

// raceEnabled: under the race detector shrinking is checked with one
// seed (nothing here runs side by side; the plain run checks them all).
const raceEnabled = true
