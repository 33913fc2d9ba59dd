package runtime

// SystemRule is Sentinel's SystemRule (system adaptive protection). It guards
// the whole process: only inbound resources (WithTrafficType(TrafficInbound))
// are checked, against the aggregate of all inbound traffic. A negative field
// is unset; the thresholds of all system rules in force combine by minimum.
type SystemRule struct {
	// HighestSystemLoad is the one-minute load average above which inbound
	// calls are refused, unless the BBR estimate says the process can still
	// take them (Sentinel's checkBbr).
	HighestSystemLoad float64
	// HighestCPUUsage is the process CPU usage (0..1, of the CPUs the
	// process may use) above which inbound calls are refused.
	HighestCPUUsage float64
	// QPS is the highest rate of passed inbound calls per second.
	QPS float64
	// AvgRT is the highest mean response time of inbound calls, in ms.
	AvgRT int64
	// MaxThread is the highest number of inbound calls in flight.
	MaxThread int64
}
