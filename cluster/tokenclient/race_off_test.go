//go:build !race

package tokenclient

const raceEnabled = false
