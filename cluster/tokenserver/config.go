package tokenserver

import "fmt"

// FlowConfig is how the server judges every flow budget (Sentinel's
// ServerFlowConfig); the zero value of a field means its default.
type FlowConfig struct {
	// ExceedCount multiplies every rule's threshold (default 1).
	ExceedCount float64 `json:"exceedCount"`
	// MaxOccupyRatio bounds what prioritized calls may borrow from the next
	// bucket, as a fraction of the threshold (default 1).
	MaxOccupyRatio float64 `json:"maxOccupyRatio"`
	// IntervalMs and SampleCount are the window of a namespace's request
	// statistics (defaults 1000 and 10); each rule's own window is its
	// ClusterConfig's.
	IntervalMs  int `json:"intervalMs"`
	SampleCount int `json:"sampleCount"`
	// MaxAllowedQps caps the token requests the server answers per second
	// for one namespace; over it, requests are answered TOO_MANY_REQUEST
	// (default 30000).
	MaxAllowedQps float64 `json:"maxAllowedQps"`
}

// Sentinel's defaults.
const (
	DefaultExceedCount    = 1.0
	DefaultMaxOccupyRatio = 1.0
	DefaultIntervalMs     = 1000
	DefaultSampleCount    = 10
	DefaultMaxAllowedQps  = 30000.0
)

// WithDefaults returns c with every zero field set to its default.
func (c FlowConfig) WithDefaults() FlowConfig {
	if c.ExceedCount == 0 {
		c.ExceedCount = DefaultExceedCount
	}
	if c.MaxOccupyRatio == 0 {
		c.MaxOccupyRatio = DefaultMaxOccupyRatio
	}
	if c.IntervalMs == 0 {
		c.IntervalMs = DefaultIntervalMs
	}
	if c.SampleCount == 0 {
		c.SampleCount = DefaultSampleCount
	}
	if c.MaxAllowedQps == 0 {
		c.MaxAllowedQps = DefaultMaxAllowedQps
	}
	return c
}

// Validate reports a field out of range, naming it.
func (c FlowConfig) Validate() error {
	c = c.WithDefaults()
	switch {
	case c.ExceedCount < 0:
		return fmt.Errorf("exceedCount %v: must be > 0", c.ExceedCount)
	case c.MaxOccupyRatio < 0:
		return fmt.Errorf("maxOccupyRatio %v: must be > 0", c.MaxOccupyRatio)
	case c.IntervalMs < 0 || c.SampleCount < 0 || c.IntervalMs%c.SampleCount != 0:
		return fmt.Errorf("intervalMs %d, sampleCount %d: the interval must be a positive multiple of the sample count", c.IntervalMs, c.SampleCount)
	case c.MaxAllowedQps < 0:
		return fmt.Errorf("maxAllowedQps %v: must be > 0", c.MaxAllowedQps)
	}
	return nil
}
