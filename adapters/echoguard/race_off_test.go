//go:build !race

package echoguard

const raceEnabled = false
