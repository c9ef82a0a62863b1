//go:build !race

package testkit

// RaceEnabled: the tests run under the race detector (go test -race), which
// slows a process several times and multiplies its memory, so time and
// memory bounds are relaxed and the longest runs are skipped.
const RaceEnabled = false
