//go:build race

package selftest_test

// raceEnabled: under the race detector the reference server (in the test
// process) answers a big site's listings many times slower.
const raceEnabled = true
