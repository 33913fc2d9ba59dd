//go:build !linux

package sysstat

import "time"

// Supported reports whether this platform has the readings.
func Supported() bool { return false }

// LoadAverage is unknown (-1) on this platform.
func LoadAverage() float64 { return -1 }

// CPULimit is unknown (0) on this platform.
func CPULimit() float64 { return 0 }

// Sampler reports every reading unknown on this platform.
type Sampler struct{}

// NewSampler returns a sampler.
func NewSampler() *Sampler { return &Sampler{} }

// Sample reports load and CPU usage unknown (-1).
func (s *Sampler) Sample(now time.Time) (load, cpu float64) { return -1, -1 }
