package metrics

import (
	"sort"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// DefaultKeep is how many seconds a Sampler keeps per resource: two
// minutes, so the one-minute columns are whole and the dashboard's first
// fetch, which reaches 15 s back, finds its seconds.
const DefaultKeep = 120

// grace is how long after a bucket's end the Sampler waits before reading
// it: a caller's clock reading may trail real time by a few ticks of the
// default clock (lateLimit in runtime/clock.go), and its write belongs to
// the bucket of that reading.
const grace = 20

// Config configures a Sampler. The zero value samples every declared
// resource with the runtime's Clock and the system's wall clock.
type Config struct {
	// Keep is how many seconds to keep per resource (DefaultKeep when 0;
	// at least 60).
	Keep int
	// NowMs reads the runtime's clock in ms (runtime.StatNowMs when nil).
	NowMs func() int64
	// WallMs reads the wall clock in Unix ms (the system's when nil). With
	// a ManualClock, return the wall time the manual time stands for.
	WallMs func() int64
	// Resources lists the resources to sample (runtime.Resources when nil).
	Resources func() []*runtime.Resource
}

// Sampler files the runtime's statistics second by second. Poll reads what
// has completed; Start polls from a goroutine until Stop. All methods are
// safe for concurrent use.
type Sampler struct {
	cfg Config

	mu      sync.Mutex
	started bool
	next    int64 // next bucket id to read
	offset  int64 // wall ms minus runtime ms, a whole number of seconds
	series  map[string]*series
	latest  int64 // Time of the latest completed second, 0 before the first

	runMu sync.Mutex
	stop  chan struct{}
	done  chan struct{}
}

// series is one resource's ring.
type series struct {
	info    Resource
	res     *runtime.Resource
	ring    []Second // slot k % len(ring) holds runtime second k
	filled  []bool
	pending Second
	totals  Totals
}

// New returns a Sampler; it reads nothing until Poll or Start.
func New(cfg Config) *Sampler {
	if cfg.Keep == 0 {
		cfg.Keep = DefaultKeep
	}
	cfg.Keep = max(cfg.Keep, 60)
	if cfg.NowMs == nil {
		cfg.NowMs = runtime.StatNowMs
	}
	if cfg.WallMs == nil {
		cfg.WallMs = func() int64 { return time.Now().UnixMilli() }
	}
	if cfg.Resources == nil {
		cfg.Resources = runtime.Resources
	}
	return &Sampler{cfg: cfg, series: map[string]*series{}}
}

// Start polls from a goroutine just after every bucket boundary until Stop.
// Starting a started Sampler does nothing.
func (s *Sampler) Start() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.stop != nil {
		return
	}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go s.run(s.stop, s.done)
}

// Stop ends the polling goroutine and waits for it. The ring stays readable.
func (s *Sampler) Stop() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.stop, s.done = nil, nil
}

func (s *Sampler) run(stop, done chan struct{}) {
	defer close(done)
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		s.Poll()
		// Wake just after the next bucket boundary (plus grace): the bucket
		// that just ended is then read while it is still whole.
		now := s.cfg.NowMs()
		wait := floorDiv(now-grace, runtime.StatBucketMs)*runtime.StatBucketMs + runtime.StatBucketMs + grace - now
		t.Reset(time.Duration(min(max(wait, 10), runtime.StatBucketMs)) * time.Millisecond)
	}
}

// Poll reads every bucket that has ended since the last Poll and files each
// completed second. The first Poll starts at the current second.
func (s *Sampler) Poll() {
	resources := s.cfg.Resources()
	s.mu.Lock()
	defer s.mu.Unlock()
	now, wall := s.cfg.NowMs(), s.cfg.WallMs()
	// The runtime's clock and the wall clock differ by a constant while
	// neither is stepped; round to whole seconds (the default clock's
	// seconds are the wall clock's), and follow a step of the wall clock.
	if off := floorDiv(wall-now+500, 1000) * 1000; !s.started || off != s.offset {
		s.offset = off
	}
	cur := floorDiv(now-grace, runtime.StatBucketMs) // first bucket not safely ended
	if !s.started {
		s.started = true
		s.next = floorDiv(now, runtime.StatBucketMs) &^ 1 // the second now is in
	}
	// Beyond the ring, nothing could be kept anyway.
	if oldest := (cur - 2*int64(s.cfg.Keep)) &^ 1; s.next < oldest {
		s.next = oldest
	}
	for _, r := range resources {
		s.track(r)
	}
	for ; s.next < cur; s.next++ {
		for _, se := range s.series {
			s.read(se, s.next)
		}
		if s.next&1 == 1 {
			s.latest = floorDiv(s.next, 2)*1000 + s.offset
		}
	}
}

// track makes sure r has a series.
func (s *Sampler) track(r *runtime.Resource) {
	if _, ok := s.series[r.Name()]; ok {
		return
	}
	s.series[r.Name()] = &series{
		info:   Resource{Name: r.Name(), Type: r.ResourceType(), Traffic: r.TrafficType()},
		res:    r,
		ring:   make([]Second, s.cfg.Keep),
		filled: make([]bool, s.cfg.Keep),
	}
}

// read adds bucket id to se's pending second, filing the second when id is
// its second half.
func (s *Sampler) read(se *series, id int64) {
	b, complete := se.res.ReadStatBucket(id)
	k := floorDiv(id, 2)
	if id&1 == 0 || se.pending.Time != k*1000+s.offset {
		se.pending = Second{Time: k*1000 + s.offset, Partial: id&1 == 1}
		// A series created at a second's second half missed the first.
	}
	se.pending.add(b)
	se.pending.Partial = se.pending.Partial || !complete
	if id&1 == 0 {
		return
	}
	se.pending.Concurrency = se.res.Concurrency()
	slot := int(k % int64(len(se.ring)))
	if slot < 0 {
		slot += len(se.ring)
	}
	se.ring[slot], se.filled[slot] = se.pending, true
	se.totals.add(se.pending)
}

// Latest is the start (Unix ms) of the latest completed second, 0 before the
// first.
func (s *Sampler) Latest() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest
}

// Resources lists the sampled resources, sorted by name.
func (s *Sampler) Resources() []Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Resource, 0, len(s.series))
	for _, se := range s.series {
		out = append(out, se.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Seconds returns the resource's kept seconds whose Time lies in [fromMs,
// toMs] (both ends inclusive), oldest first.
func (s *Sampler) Seconds(resource string, fromMs, toMs int64) []Second {
	s.mu.Lock()
	defer s.mu.Unlock()
	se, ok := s.series[resource]
	if !ok {
		return nil
	}
	return se.window(fromMs, toMs, nil)
}

// Line is one resource's second, as the metric command lists them.
type Line struct {
	Resource
	Second
}

// Lines returns the kept seconds of every resource whose Time lies in
// [fromMs, toMs], ordered by time, then resource name (the order of
// Sentinel's metric log).
func (s *Sampler) Lines(fromMs, toMs int64) []Line {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Line
	for _, se := range s.series {
		for _, sec := range se.window(fromMs, toMs, nil) {
			out = append(out, Line{se.info, sec})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Time != out[j].Time {
			return out[i].Time < out[j].Time
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Stats summarises every sampled resource, sorted by name.
func (s *Sampler) Stats() []Stat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Stat, 0, len(s.series))
	for _, se := range s.series {
		st := Stat{Resource: se.info, Totals: se.totals}
		if s.latest != 0 {
			secs := se.window(s.latest-59_000, s.latest, nil)
			if n := len(secs); n > 0 && secs[n-1].Time == s.latest {
				st.Last = secs[n-1]
			}
			st.Minute.Time = s.latest - 59_000
			for _, sec := range secs {
				st.Minute.add(runtime.BucketStats{Pass: sec.Pass, Block: sec.Block, Success: sec.Success,
					Error: sec.Exception, RTSumMs: sec.RTSumMs, OccupiedPass: sec.OccupiedPass})
				st.Minute.Partial = st.Minute.Partial || sec.Partial
			}
			st.Minute.Concurrency = st.Last.Concurrency
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// window appends the kept seconds in [fromMs, toMs] to dst, oldest first.
func (se *series) window(fromMs, toMs int64, dst []Second) []Second {
	n := len(se.ring)
	type kept struct {
		i int
		t int64
	}
	var sel []kept
	for i := range n {
		if se.filled[i] && se.ring[i].Time >= fromMs && se.ring[i].Time <= toMs {
			sel = append(sel, kept{i, se.ring[i].Time})
		}
	}
	sort.Slice(sel, func(a, b int) bool { return sel[a].t < sel[b].t })
	for _, k := range sel {
		dst = append(dst, se.ring[k.i])
	}
	return dst
}

// floorDiv is a/b rounded towards minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}
