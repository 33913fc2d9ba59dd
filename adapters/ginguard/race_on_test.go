//go:build race

package ginguard

const raceEnabled = true
