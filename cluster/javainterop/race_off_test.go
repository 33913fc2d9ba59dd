//go:build !race

package javainterop

const raceEnabled = false
