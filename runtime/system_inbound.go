package runtime

import (
	"math"
	"sync"
	"sync/atomic"
)

// Geometry of the inbound aggregate, Sentinel's ENTRY_NODE second-level
// window: two 500 ms buckets.
const (
	inboundBucketMs = 500
	inboundBuckets  = 2
	// statisticMaxRtMs is Sentinel's csp.sentinel.statistic.max.rt: the
	// minimum response time of a bucket no call has ended in.
	statisticMaxRtMs = 5000
)

// inboundStats is the aggregate of every inbound resource's calls, which
// system protection reads (Sentinel's "__total_inbound_traffic__" entry
// node). Calls are counted in it only while a system rule is in force, so
// they pay for it only then. There is one for the life of the process: a
// call counted when it started is counted when it ends, even if protection
// went off and on meanwhile, so the count of calls in flight stays true;
// counts older than the window are ignored when protection comes back.
var inboundStats = newInbound()

// inbound is the inbound aggregate's type: a plain shared structure, not
// striped per processor.
type inbound struct {
	buckets  [inboundBuckets]inboundBucket
	inFlight atomic.Int64
	roll     sync.Mutex // serialises the reset of a bucket that starts anew
}

type inboundBucket struct {
	id      atomic.Int64 // the bucket's window ID (start / inboundBucketMs)
	pass    atomic.Int64
	success atomic.Int64
	rt      atomic.Int64 // sum of response times, ms
	minRt   atomic.Int64 // least response time of a call, ms
}

func newInbound() *inbound {
	s := &inbound{}
	for i := range s.buckets {
		s.buckets[i].id.Store(math.MinInt64)
	}
	return s
}

// at returns the bucket of window ID id, reset if it held an older one.
func (s *inbound) at(id int64) *inboundBucket {
	b := &s.buckets[uint64(id)%inboundBuckets]
	if b.id.Load() == id {
		return b
	}
	s.roll.Lock()
	if old := b.id.Load(); old < id {
		b.pass.Store(0)
		b.success.Store(0)
		b.rt.Store(0)
		b.minRt.Store(statisticMaxRtMs)
		b.id.Store(id)
	}
	s.roll.Unlock()
	return b
}

// forget empties the window (not the calls in flight, which still end).
func (s *inbound) forget() {
	s.roll.Lock()
	for i := range s.buckets {
		s.buckets[i].id.Store(math.MinInt64)
	}
	s.roll.Unlock()
}

// enter counts an admitted call at nowMs.
func (s *inbound) enter(nowMs, acquire int64) {
	s.inFlight.Add(1)
	s.at(nowMs / inboundBucketMs).pass.Add(acquire)
}

// exit counts the end of a call at nowMs that ran rtMs.
func (s *inbound) exit(nowMs, rtMs, acquire int64) {
	s.inFlight.Add(-1)
	b := s.at(nowMs / inboundBucketMs)
	b.success.Add(acquire)
	// Once per call, whatever its count: Sentinel's addRtAndSuccess adds
	// the count to the successes and the response time once, so a batch's
	// average is its time over its items.
	b.rt.Add(rtMs)
	for m := b.minRt.Load(); rtMs < m && !b.minRt.CompareAndSwap(m, rtMs); m = b.minRt.Load() {
	}
}

// inboundView is what system protection reads of the window at one time.
type inboundView struct {
	pass, success, rt int64
	maxSuccess, minRt int64
}

// view sums the buckets that belong to the window ending at nowMs.
func (s *inbound) view(nowMs int64) inboundView {
	cur := nowMs / inboundBucketMs
	v := inboundView{minRt: statisticMaxRtMs}
	for i := range s.buckets {
		b := &s.buckets[i]
		if id := b.id.Load(); id > cur || id <= cur-inboundBuckets {
			continue // empty, or older than the window
		}
		pass, success := b.pass.Load(), b.success.Load()
		v.pass += pass
		v.success += success
		v.rt += b.rt.Load()
		v.maxSuccess = max(v.maxSuccess, success)
		v.minRt = min(v.minRt, b.minRt.Load())
	}
	v.minRt = max(v.minRt, 1)
	return v
}

// avgRt is the mean response time over the window, 0 without calls
// (Sentinel's StatisticNode.avgRt).
func (v inboundView) avgRt() float64 {
	if v.success == 0 {
		return 0
	}
	return float64(v.rt) / float64(v.success)
}

// maxSuccessQps is the busiest bucket's successes as a per-second rate
// (Sentinel's StatisticNode.maxSuccessQps). The count is at least 1, as
// Sentinel's ArrayMetric.maxSuccess: without it, BBR would refuse a second
// call in flight whenever no call has ended in the window yet.
func (v inboundView) maxSuccessQps() float64 {
	return float64(max(v.maxSuccess, 1)) * 1000 / inboundBucketMs
}
