//go:build !race

package leaparray

// raceEnabled reports whether the tests run under the race detector, which
// makes each operation many times slower: long loops run fewer rounds.
const raceEnabled = false
