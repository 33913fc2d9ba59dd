package metrics

import "github.com/sentinelgen/sentinelgen/runtime"

// Second is one resource's statistics over one completed wall-clock second.
// Call counts are multiplied by their acquire count, as the runtime counts.
type Second struct {
	// Time is the start of the second, in Unix milliseconds (a multiple of
	// 1000 with the default clock).
	Time int64
	// Pass counts admitted calls, Block refused ones.
	Pass, Block int64
	// Success counts completed calls, failed ones included (Sentinel's
	// successQps); Exception counts those with a traced error.
	Success, Exception int64
	// RTSumMs is the sum of the completed calls' response times in ms.
	RTSumMs int64
	// OccupiedPass counts prioritized calls that borrowed capacity of this
	// second ahead of time (not in Pass).
	OccupiedPass int64
	// Concurrency is the number of calls in flight when the second was
	// read, just after it ended.
	Concurrency int64
	// Partial is true when the sampler read a bucket of this second only
	// after its slot had been reused (it was starved): the counts are then
	// short by what was lost, and nothing was made up for it.
	Partial bool
}

// AvgRTMs is the mean response time in ms, as Sentinel's metric line has it:
// RTSumMs / Success in integer division, or RTSumMs when nothing completed.
func (s Second) AvgRTMs() int64 {
	if s.Success == 0 {
		return s.RTSumMs
	}
	return s.RTSumMs / s.Success
}

// Empty reports whether nothing happened in the second (no pass, block,
// completion, error, response time or borrowed pass): Sentinel's metric log
// leaves such seconds out.
func (s Second) Empty() bool {
	return s.Pass == 0 && s.Block == 0 && s.Success == 0 && s.Exception == 0 && s.RTSumMs == 0 && s.OccupiedPass == 0
}

func (s *Second) add(b runtime.BucketStats) {
	s.Pass += b.Pass
	s.Block += b.Block
	s.Success += b.Success
	s.Exception += b.Error
	s.RTSumMs += b.RTSumMs
	s.OccupiedPass += b.OccupiedPass
}

// Totals are a resource's counts since the sampler started, for counters
// that only grow (Prometheus).
type Totals struct {
	Pass, Block, Success, Exception, RTSumMs, OccupiedPass int64
	// PartialSeconds counts the seconds marked Partial: how often the
	// sampler came too late and the totals are short.
	PartialSeconds int64
}

func (t *Totals) add(s Second) {
	t.Pass += s.Pass
	t.Block += s.Block
	t.Success += s.Success
	t.Exception += s.Exception
	t.RTSumMs += s.RTSumMs
	t.OccupiedPass += s.OccupiedPass
	if s.Partial {
		t.PartialSeconds++
	}
}

// Resource names a sampled resource and what NewResource declared about it.
type Resource struct {
	// Name is the resource name.
	Name string
	// Type is the resource type (Sentinel's classification).
	Type runtime.ResourceType
	// Traffic is inbound or outbound.
	Traffic runtime.TrafficType
}

// Stat is a resource's summary: the last completed second, the last minute
// and the totals.
type Stat struct {
	Resource
	// Last is the latest completed second (zero Time when none yet).
	Last Second
	// Minute sums the completed seconds of the last 60 (Time is the first
	// of them); Concurrency is the latest second's.
	Minute Second
	// Totals are the counts since start.
	Totals Totals
}
