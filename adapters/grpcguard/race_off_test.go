//go:build !race

package grpcguard

const raceEnabled = false
