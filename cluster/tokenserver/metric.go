package tokenserver

// event is one of the counts a flow budget keeps per bucket, in the order of
// Sentinel's ClusterFlowEvent.
type event int

const (
	evPass event = iota
	evBlock
	evPassRequest
	evBlockRequest
	evOccupiedPass
	evOccupiedBlock
	evWaiting
	numEvents
)

// bucket is one slice of a window: its start time and its counts.
type bucket struct {
	startMs int64
	counts  [numEvents]int64
}

// window is the sliding window of one flow budget, kept as Sentinel's token
// server keeps it (ClusterMetric over a LeapArray) so that a Go server and a
// Java one answer a sequence of requests alike: sampleCount buckets over
// intervalMs, a bucket reset when time comes back to its slot, and counts
// promised to prioritized calls (occupied) moved into whichever bucket is
// reset next. It is not safe for concurrent use: its budget's lock guards it.
type window struct {
	widthMs, intervalMs int64
	buckets             []bucket // nil slots are never-used buckets (startMs -1)
	// occupied holds the passes (and pass requests) promised to callers told
	// to wait for the next bucket; hasOccupied says it must be moved.
	occupied    [numEvents]int64
	hasOccupied bool
	stale       bucket // where counts of a time before the newest bucket go
}

func newWindow(sampleCount int, intervalMs int64) *window {
	w := &window{widthMs: intervalMs / int64(sampleCount), intervalMs: intervalMs, buckets: make([]bucket, sampleCount)}
	for i := range w.buckets {
		w.buckets[i].startMs = -1
	}
	return w
}

// current returns the bucket containing nowMs, resetting its slot when it
// still holds an older bucket (and moving the occupied counts into it).
func (w *window) current(nowMs int64) *bucket {
	id := nowMs / w.widthMs
	b := &w.buckets[id%int64(len(w.buckets))]
	start := id * w.widthMs
	switch {
	case b.startMs == start:
	case b.startMs < 0: // a first use: no reset, so nothing occupied moves in
		b.startMs = start
	case start > b.startMs:
		b.startMs, b.counts = start, [numEvents]int64{}
		if w.hasOccupied {
			b.counts[evOccupiedPass] += w.occupied[evPass]
			b.counts[evPass] += w.occupied[evPass]
			b.counts[evPassRequest] += w.occupied[evPassRequest]
			w.occupied = [numEvents]int64{}
			w.hasOccupied = false
		}
	default:
		// The clock went back: the slot holds a newer bucket. Counts go to
		// a bucket of their own that no sum reads, as Java's LeapArray
		// counts them.
		w.stale = bucket{startMs: start}
		return &w.stale
	}
	return b
}

// add counts n of ev in the bucket of nowMs.
func (w *window) add(nowMs int64, ev event, n int64) { w.current(nowMs).counts[ev] += n }

// sum is ev over the buckets of the interval ending at nowMs.
func (w *window) sum(nowMs int64, ev event) int64 {
	w.current(nowMs)
	var s int64
	for i := range w.buckets {
		b := &w.buckets[i]
		if b.startMs >= 0 && nowMs-b.startMs <= w.intervalMs {
			s += b.counts[ev]
		}
	}
	return s
}

// avg is ev per second over the interval ending at nowMs.
func (w *window) avg(nowMs int64, ev event) float64 {
	return float64(w.sum(nowMs, ev)) / (float64(w.intervalMs) / 1000)
}

// head is ev in the oldest bucket of the interval (the slot the next bucket
// will take), 0 when that bucket is outside the interval.
func (w *window) head(nowMs int64, ev event) int64 {
	b := &w.buckets[(nowMs/w.widthMs+1)%int64(len(w.buckets))]
	if b.startMs < 0 || nowMs-b.startMs > w.intervalMs {
		return 0
	}
	return b.counts[ev]
}

// occupy promises n passes of the next bucket to a prioritized caller.
func (w *window) occupy(n int64) {
	w.occupied[evPass] += n
	w.occupied[evPassRequest]++
	w.hasOccupied = true
}
