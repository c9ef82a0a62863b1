//go:build !race

package selftest_test

const raceEnabled = false
