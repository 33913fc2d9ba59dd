//go:build !race

package httpguard

const raceEnabled = false
