// Package sysreadings holds the readings system adaptive protection compares
// with its load and CPU thresholds: the latest one-minute load average and
// process CPU usage (0..1), each -1 while unknown.
//
// The runtime's sampler stores them once a second; the check reads them
// with one atomic load each. They live here, outside package runtime, so
// that tests elsewhere in this module (the conformance harness, which
// replays the same scenario through Java Sentinel with scripted readings)
// can pin them to exact values without runtime exporting a way to fake
// the machine to its users: an internal package is importable only from
// within this module.
package sysreadings

import (
	"math"
	"sync"
	"sync/atomic"
)

var (
	// loadBits and cpuBits are the readings' float64 bits, read without a
	// lock on the check path.
	loadBits, cpuBits atomic.Uint64
	// mu serialises writers, so that a sample racing with Pin cannot
	// overwrite the pinned values after Pin returned.
	mu     sync.Mutex
	pinned bool
)

func init() { store(-1, -1) }

func store(load, cpu float64) {
	loadBits.Store(math.Float64bits(load))
	cpuBits.Store(math.Float64bits(cpu))
}

// Load is the latest load average, -1 while unknown.
func Load() float64 { return math.Float64frombits(loadBits.Load()) }

// CPU is the latest CPU usage (0..1), -1 while unknown.
func CPU() float64 { return math.Float64frombits(cpuBits.Load()) }

// Sampled stores readings taken from the machine (-1 for unknown). While
// the readings are pinned it does nothing.
func Sampled(load, cpu float64) {
	mu.Lock()
	defer mu.Unlock()
	if !pinned {
		store(load, cpu)
	}
}

// Pin sets the readings to load and cpu and holds them there: samples of
// the machine are ignored until Unpin. Pin may be called again to change
// them. It is for tests that must decide the readings exactly.
func Pin(load, cpu float64) {
	mu.Lock()
	defer mu.Unlock()
	pinned = true
	store(load, cpu)
}

// Unpin lets samples of the machine in again. The readings are unknown
// (-1) until the next sample.
func Unpin() {
	mu.Lock()
	defer mu.Unlock()
	pinned = false
	store(-1, -1)
}

// Pinned reports whether the readings are pinned.
func Pinned() bool {
	mu.Lock()
	defer mu.Unlock()
	return pinned
}
