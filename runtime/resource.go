package runtime

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// Resource is the handle of one guarded resource. Create it once, with
// NewResource, and keep it (generated code keeps it in a package variable).
// It points straight at its statistics and at the rule checks in force, so
// Entry does no map lookup and takes no lock.
type Resource struct {
	name string
	// rules is the checks in force, swapped whole when rules are loaded; nil
	// when no rule names the resource.
	rules atomic.Pointer[ruleSet]
	stats *node
	// config packs the traffic type, resource type and whether NewResource
	// declared the resource (it may exist earlier because a rule named it).
	config atomic.Uint32
}

const declaredBit = 1 << 16

var registry struct {
	sync.Mutex
	byName map[string]*Resource
}

// NewResource returns the resource named name, creating it on the first call;
// later calls with the same name return the same handle. Options apply on the
// first declaring call only. Rules loaded before the resource existed apply
// to it at once.
func NewResource(name string, opts ...ResourceOption) *Resource {
	var cfg resourceConfig
	for _, o := range opts {
		o(&cfg)
	}
	registry.Lock()
	defer registry.Unlock()
	r := lookupOrCreateLocked(name)
	if r.config.Load()&declaredBit == 0 {
		r.config.Store(declaredBit | uint32(cfg.resourceType)<<8 | uint32(cfg.traffic))
	}
	return r
}

// lookupOrCreateLocked finds or creates a resource without declaring it.
// Callers hold registry's lock.
func lookupOrCreateLocked(name string) *Resource {
	if registry.byName == nil {
		registry.byName = map[string]*Resource{}
	}
	if r, ok := registry.byName[name]; ok {
		return r
	}
	r := &Resource{name: name, stats: newNode()}
	registry.byName[name] = r
	return r
}

// Resources returns every resource declared with NewResource, sorted by name.
func Resources() []*Resource {
	registry.Lock()
	defer registry.Unlock()
	out := make([]*Resource, 0, len(registry.byName))
	for _, r := range registry.byName {
		if r.config.Load()&declaredBit != 0 {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Name returns the resource name.
func (r *Resource) Name() string { return r.name }

// TrafficType returns the traffic type given to NewResource.
func (r *Resource) TrafficType() TrafficType { return TrafficType(r.config.Load() & 0xff) }

// ResourceType returns the resource type given to NewResource.
func (r *Resource) ResourceType() ResourceType { return ResourceType(r.config.Load() >> 8 & 0xff) }

// Entry is one admitted call. Call Exit exactly once when the call ends
// (usually with defer); call TraceError with the call's business error, if
// any, before Exit. The zero Entry, which Resource.Entry returns with a
// block, does nothing on Exit or TraceError.
type Entry struct {
	res     *Resource
	rules   *ruleSet // the checks this call passed, which judge its outcome
	via     *node    // statistics of the call's entrance, when a chain rule tracks it
	startNs int64
	// secondID is the second-level window ID at startNs: Exit reuses it
	// when the clock has not moved (with the default clock, any call
	// shorter than its millisecond tick), sparing the time arithmetic.
	secondID int64
	probes   uint64 // bit i: this call is the probe of rules.degrade[i]
	acquire  int32
	failed   bool
	exited   bool
}

// Entry asks to run one call of the resource. It returns a nil *BlockError
// when the call may proceed, or the preallocated error of the first rule that
// blocks it. Flow rules are checked first, in load order, then circuit
// breakers. ctx carries the entrance for chain rules; it is only consulted
// when such a rule exists. A call may sleep through the Clock when a rate
// limiter queues it or a prioritized call borrows from the next window.
func (r *Resource) Entry(ctx context.Context, opts ...EntryOption) (Entry, *BlockError) {
	acquire, prioritized := int64(1), false
	if len(opts) != 0 {
		acquire, prioritized = applyEntryOptions(opts)
	}
	nowNs := nowNanos()
	nowMs := nowNs / 1e6
	second := r.stats.second
	id := second.ID(nowMs)
	rs := r.rules.Load()
	if rs == nil {
		p := leaparray.Pin()
		r.stats.enter(second.AtID(id, p), p, nowMs, acquire, true)
		leaparray.Unpin()
		return Entry{res: r, startNs: nowNs, secondID: id, acquire: int32(acquire)}, nil
	}
	if rs.plain && !prioritized {
		switch be, outcome := r.enterPlain(rs, nowNs, id, acquire); outcome {
		case plainAdmitted:
			return Entry{res: r, rules: rs, startNs: nowNs, secondID: id, acquire: int32(acquire)}, nil
		case plainBlocked:
			return Entry{}, be
		}
		return r.enterBreakers(rs, nil, nowNs, id, acquire, true)
	}
	var via *node
	if rs.chained != nil {
		via = rs.chained[EntranceFrom(ctx)]
	}
	counted := true
	for _, f := range rs.flow {
		if f.plainQPS && !prioritized {
			if r.stats.passCountAt(id)+acquire <= f.limit {
				continue
			}
			r.recordBlock(via, id, acquire)
			return Entry{}, f.blocked
		}
		switch f.check(r, via, nowNs, id, acquire, prioritized) {
		case verdictPass:
			continue
		case verdictBlock:
			r.recordBlock(via, id, acquire)
			return Entry{}, f.blocked
		case verdictBorrowed:
			counted = false
		}
		// The call slept: later checks and the statistics use the new time.
		nowNs = nowNanos()
		id = second.ID(nowNs / 1e6)
	}
	return r.enterBreakers(rs, via, nowNs, id, acquire, counted)
}

// Outcomes of enterPlain.
const (
	plainAdmitted  = iota // checked and recorded
	plainBlocked          // a flow rule blocked the call (recorded)
	plainUndecided        // flow passed; a breaker is not CLOSED
)

// enterPlain is Entry for a plain rule set (see ruleSet.plain), the common
// case, in one pinned section: the flow checks (which need the pin to use
// their processor's cached bounds, see leaparray.Window.FitsPinned), and,
// when every breaker is CLOSED, the counter writes. A breaker that is not
// CLOSED may change state and call listeners, which must not run pinned, so
// that case is left undecided for enterBreakers. It returns the outcome
// rather than the Entry: Entry builds its result once, not twice.
func (r *Resource) enterPlain(rs *ruleSet, nowNs, id, acquire int64) (*BlockError, int) {
	second := r.stats.second
	p := leaparray.Pin()
	for _, f := range rs.flow {
		if !second.FitsPinned(id, acquire, f.limit, p) {
			second.AtID(id, p).Add(evBlock, acquire)
			leaparray.Unpin()
			return f.blocked, plainBlocked
		}
	}
	for _, b := range rs.degrade {
		if b.state.Load() != int32(StateClosed) {
			leaparray.Unpin()
			return nil, plainUndecided
		}
	}
	r.stats.enter(second.AtID(id, p), p, nowNs/1e6, acquire, true)
	leaparray.Unpin()
	return nil, plainAdmitted
}

// enterBreakers runs the circuit breakers for a call the flow checks
// admitted, and records the call when they let it through.
func (r *Resource) enterBreakers(rs *ruleSet, via *node, nowNs, id, acquire int64, counted bool) (Entry, *BlockError) {
	nowMs := nowNs / 1e6
	var probes uint64
	for i, b := range rs.degrade {
		pass, probe := b.tryPass(nowMs)
		if !pass {
			// A probe admitted by an earlier breaker will never complete:
			// put that breaker back to OPEN rather than leave it HALF_OPEN.
			for j := range i {
				if probes&(1<<j) != 0 {
					rs.degrade[j].abandonProbe(nowMs)
				}
			}
			r.recordBlock(via, id, acquire)
			return Entry{}, b.blocked
		}
		if probe {
			probes |= 1 << i
		}
	}
	// Counter writes run pinned to the processor: its stripes are then
	// written without locked instructions (see leaparray.Pin).
	p := leaparray.Pin()
	r.stats.enter(r.stats.second.AtID(id, p), p, nowMs, acquire, counted)
	if via != nil {
		via.enter(via.second.AtID(id, p), p, nowMs, acquire, counted)
	}
	for _, w := range rs.ownWindows {
		w.AtPinned(nowMs, p).Add(0, acquire)
	}
	leaparray.Unpin()
	return Entry{res: r, rules: rs, via: via, startNs: nowNs, secondID: id, acquire: int32(acquire), probes: probes}, nil
}

func applyEntryOptions(opts []EntryOption) (acquire int64, prioritized bool) {
	acquire = 1
	for _, o := range opts {
		if o.acquire > 0 {
			acquire = int64(o.acquire)
		}
		prioritized = prioritized || o.prioritized
	}
	return acquire, prioritized
}

// recordBlock counts a blocked call in the second-level window id.
func (r *Resource) recordBlock(via *node, id, acquire int64) {
	p := leaparray.Pin()
	r.stats.second.AtID(id, p).Add(evBlock, acquire)
	if via != nil {
		via.second.AtID(id, p).Add(evBlock, acquire)
	}
	leaparray.Unpin()
}

// TraceError marks the call as failed when err is not nil, for the error
// statistics and the error-based breakers. Only traced errors count. Calls
// after Exit are ignored.
func (e *Entry) TraceError(err error) {
	if err != nil && !e.exited {
		e.failed = true
	}
}

// Exit ends the call: it records the response time (at the Clock's
// precision, milliseconds with the default clock), success and error counts,
// and lets circuit breakers judge the outcome. Later calls do nothing.
func (e *Entry) Exit() {
	if e.res == nil || e.exited {
		return
	}
	e.exited = true
	nowNs := nowNanos()
	nowMs := nowNs / 1e6
	// A reading just after the default clock wakes can be a fraction of a
	// millisecond ahead of the cached readings that follow it.
	rtMs, id := int64(0), e.secondID
	if nowNs != e.startNs {
		rtMs = max(nowMs-e.startNs/1e6, 0)
		id = e.res.stats.second.ID(nowMs)
	}
	acquire := int64(e.acquire)
	stats := e.res.stats
	p := leaparray.Pin()
	c := stats.second.AtID(id, p)
	stats.exit(c, p, rtMs, acquire, e.failed)
	if e.via != nil {
		e.via.exit(c.On(e.via.second, nowMs, p), p, rtMs, acquire, e.failed)
	}
	// Breakers record under the pin too and decide there (reads only);
	// a state change, which calls listeners, waits until after Unpin.
	var changes uint64
	if e.rules != nil {
		for i, b := range e.rules.degrade {
			bad := b.isBad(rtMs, e.failed)
			var bc leaparray.Cursor
			if b.window.WidthMs() == stats.second.WidthMs() {
				bc = b.window.AtID(id, p) // same bucket width: same window ID
			} else {
				bc = b.window.AtPinned(nowMs, p)
			}
			if b.recordAndJudge(bc, bad, e.probes&(1<<i) != 0) {
				changes |= 1 << i
			}
		}
	}
	leaparray.Unpin()
	for i := 0; changes != 0; i++ {
		if changes&(1<<i) != 0 {
			e.rules.degrade[i].change(nowMs, rtMs, e.failed)
			changes &^= 1 << i
		}
	}
}

// RT returns how long the call has run so far, read from the Clock.
func (e *Entry) RT() time.Duration {
	if e.res == nil {
		return 0
	}
	return time.Duration(nowNanos() - e.startNs)
}
