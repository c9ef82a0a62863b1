//go:build race

package explore

// raceEnabled: under the race detector the zero-finding test explores
// each target with one seed (seedsPerTarget), and two mutants stand for
// all (TestExploreFindsEachMutantOnlyGeneratedInputReveals): the race run
// looks for races, the plain run proves the rest.
const raceEnabled = true
