//go:build race

package javainterop

// raceEnabled is set under the race detector, which makes sync.Pool drop
// items at random and so adds allocations that a normal build has not.
const raceEnabled = true
