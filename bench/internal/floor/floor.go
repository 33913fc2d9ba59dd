package floor

import (
	goruntime "runtime"
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Geometry, as the runtime's: 40 count bits under a 24-bit window tag,
// 8-word cache lines, the second-level window's 12 counters padded to two
// lines, the breaker's 2 counters to one.
const (
	countBits  = 40
	countMask  = 1<<countBits - 1
	tagMask    = 1<<(64-countBits) - 1
	line       = 8
	secStride  = 2 * line
	brStride   = line
	widthMs    = 500
	boundStep  = 64
	evPass     = 0
	evSuccess  = 9
	brTotal    = 0
	slowRTMs   = 60_000
	unsettled  = -1 << 63
	stateClose = 0
)

// Guard is one resource's statistics and rules, in plain fields.
type Guard struct {
	limit  int64 // the QPS rule's Count
	owned  int   // processors with stripes of their own
	slack  int64 // the bound's slack (see leaparray.boundStep)
	second []atomic.Uint64
	br     []atomic.Uint64
	gauge  []atomic.Uint64
	cache  []atomic.Uint64 // per processor: window ID, version, others
	// version is the bound's version word, on a line of its own.
	version []atomic.Uint64
	state   atomic.Int32
	settled atomic.Int64
}

// New returns a Guard with a QPS limit and a slow-ratio breaker.
func New(limit int64) *Guard {
	owned := 1
	for owned < max(goruntime.GOMAXPROCS(0), goruntime.NumCPU()) && owned < 16 {
		owned *= 2
	}
	stripes := owned + 1
	g := &Guard{
		limit:   limit,
		owned:   owned,
		slack:   (2*int64(owned) - 1) * (boundStep - 1),
		second:  aligned(2 * stripes * secStride),
		br:      aligned(2 * stripes * brStride),
		gauge:   aligned(stripes * line),
		cache:   aligned(owned * line),
		version: aligned(line),
	}
	for p := range owned {
		g.cache[p*line].Store(1 << 63)
	}
	g.settled.Store(unsettled)
	return g
}

func aligned(n int) []atomic.Uint64 {
	buf := make([]atomic.Uint64, n+line-1)
	skip := 0
	for uintptr(unsafe.Pointer(&buf[skip]))%64 != 0 {
		skip++
	}
	return buf[skip : skip+n : skip+n]
}

// windowID is the runtime's for 500 ms buckets: a division by a constant.
func windowID(ms int64) int64 { return int64(uint64(ms) / widthMs) }

// store is the single-writer store of an owned stripe.
func store(p *atomic.Uint64, v uint64) { *(*uint64)(unsafe.Pointer(p)) = v }

// add adds 1 to the word at w[i] for window id, resetting a word of an
// older window; it reports whether the count crossed a boundStep multiple.
func add(w []atomic.Uint64, i int, id int64) bool {
	p := &w[i]
	tag := uint64(id) & tagMask
	old := p.Load()
	if old>>countBits != tag {
		old = tag << countBits
	}
	next := old + 1
	store(p, next)
	return old^next >= boundStep
}

// Call is one admitted call: Entry's checks and records, then Exit's. It
// reports false when the QPS rule refuses the call (recording nothing, as
// the block path's count is not part of the pass floor).
func (g *Guard) Call() bool {
	startNs := runtime.CurrentClock().Nanotime()
	id := windowID(startNs / 1e6)
	p := procPin()
	if p >= g.owned {
		procUnpin()
		panic("floor: processor beyond the stripes")
	}
	slot := int(uint64(id) & 1)
	stripes := g.owned + 1
	// The flow check: the cached bound, as FitsPinned's fast path.
	own := g.second[(slot*stripes+p)*secStride+evPass].Load()
	if own>>countBits != uint64(id)&tagMask {
		own = 0
	}
	c := g.cache[p*line:]
	if c[0].Load() != uint64(id) || c[1].Load() != g.version[0].Load() || int64(c[2].Load())+int64(own&countMask)+1+g.slack > g.limit {
		if !g.refit(id, p) {
			procUnpin()
			return false
		}
	}
	// The breaker check (CLOSED), then the pass's records.
	if g.state.Load() != stateClose {
		procUnpin()
		return false
	}
	gp := &g.gauge[p*line]
	store(gp, gp.Load()+1)
	if add(g.second, (slot*stripes+p)*secStride+evPass, id) {
		g.version[0].Add(1)
	}
	procUnpin()

	// Exit: the response time, the success count, the breaker's record and
	// its settled judgement.
	nowNs := runtime.CurrentClock().Nanotime()
	rtMs, exitID := int64(0), id
	if nowNs != startNs {
		rtMs = max(nowNs/1e6-startNs/1e6, 0)
		exitID = windowID(nowNs / 1e6)
	}
	p = procPin()
	slot = int(uint64(exitID) & 1)
	store(gp, gp.Load()-1)
	add(g.second, (slot*stripes+p)*secStride+evSuccess, exitID)
	add(g.br, (slot*stripes+p)*brStride+brTotal, exitID)
	bad := float64(rtMs) > slowRTMs
	if bad || g.settled.Load() != exitID {
		g.judge(exitID, bad, stripes)
	}
	procUnpin()
	return true
}

// refit sums every stripe and refreshes the cached bound (the slow path of
// FitsPinned), reporting whether the call fits.
//
//go:noinline
func (g *Guard) refit(id int64, p int) bool {
	stripes := g.owned + 1
	var total, own int64
	for b := id - 1; b <= id; b++ {
		slot := int(uint64(b) & 1)
		for s := range stripes {
			v := g.second[(slot*stripes+s)*secStride+evPass].Load()
			if v>>countBits == uint64(b)&tagMask {
				total += int64(v & countMask)
				if b == id && s == p {
					own = int64(v & countMask)
				}
			}
		}
	}
	c := g.cache[p*line:]
	store(&c[0], uint64(id))
	store(&c[1], g.version[0].Load())
	store(&c[2], uint64(total-own))
	return total+1 <= g.limit
}

// judge is the breaker's full judgement: sum the window, settle when enough
// calls were seen under the threshold.
//
//go:noinline
func (g *Guard) judge(id int64, bad bool, stripes int) {
	var total int64
	for b := id - 1; b <= id; b++ {
		slot := int(uint64(b) & 1)
		for s := range stripes {
			if v := g.br[(slot*stripes+s)*brStride+brTotal].Load(); v>>countBits == uint64(b)&tagMask {
				total += int64(v & countMask)
			}
		}
	}
	if total >= 5 && !bad {
		g.settled.Store(id)
	}
}
