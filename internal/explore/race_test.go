//go:build race

package explore

// raceEnabled: under the race detector the explorations of the
// zero-finding test use one seed each (see seedsPerTarget).
const raceEnabled = true
