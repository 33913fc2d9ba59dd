//go:build !race

package ginguard

const raceEnabled = false
