//go:build !race

package selftest_test

// raceDetector: the tests run under the race detector (go test -race).
const raceDetector = false
