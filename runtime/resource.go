package runtime

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/ticket"
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
		declareParamNames(r, cfg.paramNames)
		declareParamKeys(r, cfg.paramKeys)
	}
	return r
}

// resourceMem is what a new resource takes: its handle and its statistics
// node with its window and gauge, in one allocation; their counter words
// take one more (see leaparray.NewSecondIn). A first load of 100k rules
// creates 100k resources, and Entry reads all of them.
type resourceMem struct {
	r     Resource
	stats nodeMem
}

// lookupOrCreateLocked finds or creates a resource without declaring it.
// Callers hold registry's lock.
func lookupOrCreateLocked(name string) *Resource {
	h := hashName(name)
	if r, _ := registry.byName.find(name, h); r != nil {
		return r
	}
	r := newResourceMem(name)
	registry.byName.add(r, name, h)
	return r
}

// newResourceMem makes the resource named name, outside the registry.
func newResourceMem(name string) *Resource {
	mem := new(resourceMem)
	mem.stats.init()
	r := &mem.r
	r.name, r.stats = name, &mem.stats.n
	return r
}

// Resources returns every resource declared with NewResource, sorted by name.
func Resources() []*Resource {
	registry.Lock()
	defer registry.Unlock()
	out := make([]*Resource, 0, registry.byName.count)
	registry.byName.each(func(r *Resource) {
		if r.config.Load()&declaredBit != 0 {
			out = append(out, r)
		}
	})
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
// block, does nothing on Exit or TraceError. An Entry may be copied: the
// call ends at the first Exit of any copy, and later ones do nothing
// (unless it was entered in place, see InPlace). Most callers get their
// Entry from Resource.Entry; EntryTo and InPlace serve hot paths that keep
// the Entry in a variable of their own.
type Entry struct {
	res   *Resource
	rules *ruleSet // the checks this call passed, which judge its outcome
	via   *node    // statistics of the call's entrance, when a chain rule tracks it
	from  *node    // statistics of the call's origin, when a per-origin flow rule tracks it
	// startNs is when the call was admitted.
	startNs int64
	// secondID is the second-level window ID at startNs: Exit reuses it
	// when the clock has not moved (with the default clock, any call
	// shorter than its millisecond tick), sparing the time arithmetic.
	secondID int64
	probes   uint64    // bit i: this call is the probe of rules.degrade[i]
	ticket   ticket.ID // makes the first Exit of any copy the only one
	params   paramHeld
	acquire  int32
	failed   bool
	exited   bool
	// guard is nonzero when the call went through the checks before the
	// flow rules (see Resource.guard) or holds a concurrency rule's
	// reservation (guardHeld); only then are from and params meaningful
	// (from is nil and params empty when guard did not run).
	guard guardFlags
	// inPlace is set by InPlace until the next entry into e takes it: that
	// call takes no exit ticket.
	inPlace bool
}

// InPlace returns e, marked as an Entry that will stay where it is, not
// copied, until its Exit, for the EntryTo or EntryArgsTo call it is passed
// to: res.EntryTo(e.InPlace(), ctx). Such a call takes no exit ticket, the
// record that makes the first Exit of any copy of an Entry the only one,
// and so spares the pass and the Exit that work. Use it when the Entry is
// never copied between the call and its Exit, as in generated wrappers,
// whose Entry is a local variable that only a deferred closure refers to;
// otherwise leave it out. An Entry entered in place and copied counts its
// call once for each copy exited; the value itself still ends its call once
// however often Exit is called. The mark holds for one entry: the next
// EntryTo into e takes a ticket unless InPlace marks it again.
func (e *Entry) InPlace() *Entry {
	e.inPlace = true
	return e
}

// origin is the call's origin node: nil unless the call went through guard
// and a per-origin flow rule tracks its origin.
func (e *Entry) origin() *node {
	if e.guard == 0 {
		return nil
	}
	return e.from
}

// clear makes e the zero Entry for a call blocked before guard wrote into
// it. An Entry with no resource is the zero Entry but for InPlace's mark
// (only an admitted call sets res, and every block clears the whole
// value), so a block into a fresh Entry, the usual one, stores one byte
// at most.
func (e *Entry) clear() {
	if e.res != nil {
		*e = Entry{}
	} else {
		e.inPlace = false
	}
}

// guardFlags says what Resource.guard found out about a call.
type guardFlags uint8

const (
	// guardedCall marks a call that went through guard.
	guardedCall guardFlags = 1 << iota
	// guardInbound marks a call that system protection counted in the
	// inbound aggregate, which Exit then counts its end in.
	guardInbound
	// guardOther marks a call whose origin no flow rule of the resource
	// names (what limitApp "other" applies to).
	guardOther
	// guardHeldOwn, guardHeldFrom and guardHeldVia mark a call that holds a
	// place in flight reserved by a concurrency rule (see flow_reserve.go)
	// on the resource's node, its origin's node or its entrance's node;
	// Exit, or the refusal that drops the call, gives the place back. They
	// make guard nonzero, so the call leaves through exitGuarded or dropGuarded,
	// which release them; the direct path never sets them.
	guardHeldOwn
	guardHeldFrom
	guardHeldVia
	// guardHeld is every reservation flag.
	guardHeld = guardHeldOwn | guardHeldFrom | guardHeldVia
)

// Entry asks to run one call of the resource. It returns a nil *BlockError
// when the call may proceed, or the preallocated error of the first rule that
// blocks it. Checks run in Sentinel's slot order: authority rules, system
// protection (inbound resources), hot-parameter rules, flow rules (in
// Sentinel's order: see FlowRule.LimitApp), then circuit breakers. ctx
// carries the entrance for chain rules and the origin for authority and
// per-origin flow rules; it is only consulted when such a rule exists. A call
// may sleep through the Clock when a rate limiter queues it or a prioritized
// call borrows from the next window.
//
// Entry passes no arguments, so hot-parameter rules do not check it: use
// EntryArgsTo for that.
//
// Most callers should use Entry. EntryTo writes the Entry into a variable
// the caller keeps instead of returning it, which spares a copy on hot
// paths, and e.InPlace() passed to it spares the exit ticket when that
// variable is never copied before its Exit.
func (r *Resource) Entry(ctx context.Context, opts ...EntryOption) (e Entry, blocked *BlockError) {
	blocked = r.enter(&e, ctx, nil, opts)
	return e, blocked
}

// EntryTo is Entry writing the admitted call into *e (a zero Entry when the
// call is blocked) instead of returning it: the Entry is then written once,
// in place, rather than returned through the stack and copied into the
// caller's variable. Use it on hot paths that keep the Entry in a variable
// until its Exit, with e.InPlace() when that variable is not copied; Entry
// is simpler where the copy does not matter. Entry is EntryTo into its
// result; both are the same call. Like Entry, it passes no arguments to
// hot-parameter rules.
func (r *Resource) EntryTo(e *Entry, ctx context.Context, opts ...EntryOption) *BlockError {
	return r.enter(e, ctx, nil, opts)
}

// breakersClosed reports whether every circuit breaker is CLOSED, the
// usual case, in which tryBreakers has nothing to do. It inlines into
// Entry, sparing the call to tryBreakers and tryPass. One breaker, the
// usual count, is read without the loop.
func (rs *ruleSet) breakersClosed() bool {
	if len(rs.degrade) == 1 {
		return rs.degrade[0].state.Load() == int32(StateClosed)
	}
	for _, b := range rs.degrade {
		if b.state.Load() != int32(StateClosed) {
			return false
		}
	}
	return true
}

// tryBreakers asks each circuit breaker to let a call through. It returns
// the breakers whose probe the call is, or the block error of the first
// breaker that refuses it.
func (rs *ruleSet) tryBreakers(nowMs int64) (probes uint64, blocked *BlockError) {
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
			return 0, b.blocked
		}
		if probe {
			probes |= 1 << i
		}
	}
	return probes, nil
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

// TraceError marks the call as failed when err is not nil, for the error
// statistics and the error-based breakers. Only traced errors count. Calls
// after Exit are ignored.
func (e *Entry) TraceError(err error) {
	if err != nil && !e.exited {
		e.failed = true
	}
}

// RT returns how long the call has run so far, read from the Clock.
func (e *Entry) RT() time.Duration {
	if e.res == nil {
		return 0
	}
	return time.Duration(nowNanos() - e.startNs)
}
