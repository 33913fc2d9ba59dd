//go:build !race

package nacos

// raceDetector says the tests run with -race.
const raceDetector = false
