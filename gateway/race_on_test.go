//go:build race

package gateway

// raceEnabled is set under the race detector, which adds allocations.
const raceEnabled = true
