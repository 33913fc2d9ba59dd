//go:build race

package echoguard

const raceEnabled = true
