//go:build race

package hostile

// raceEnabled: the race detector's shadow memory multiplies a process's
// footprint, so absolute memory bounds are relaxed.
const raceEnabled = true
