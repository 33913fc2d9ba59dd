package runtime

import (
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// auditEvery is how many recordings (passes and blocks) each processor
// makes between two comparisons of the default clock's cache with a real
// reading (coarseClock.audit). It bounds how many calls per processor can
// see a starved cache before reads turn real: at tens of nanoseconds a call,
// 64 calls are a few microseconds of traffic. A power of two.
const auditEvery = 64

// auditCounts counts recordings per processor, so that deciding when to
// audit costs a load and a plain store on a line the processor owns, inside
// the recording's pinned section, rather than a shared atomic counter that
// every core would bounce.
type auditCounts struct {
	owned  int
	words  []atomic.Uint64 // one cache line per owned processor
	shared atomic.Uint64   // processors beyond owned, and builds without pinning
}

var clockAudits = newAuditCounts()

func newAuditCounts() *auditCounts {
	n := stripe.Count()
	return &auditCounts{owned: n, words: make([]atomic.Uint64, n*8)}
}

// due counts one recording on p (the caller is pinned to p) and reports
// whether this one should audit the clock.
func (a *auditCounts) due(p stripe.P) bool {
	i := p.Index()
	if uint(i) >= uint(a.owned) {
		return a.shared.Add(1)&(auditEvery-1) == 0
	}
	w := &a.words[i*8]
	n := w.Load() + 1
	stripe.Store(w, n)
	return n&(auditEvery-1) == 0
}

// auditClock audits the clock in force when it is the default cached clock
// (any other clock is read directly and cannot go stale). Call it unpinned:
// it may read the real clock.
//
//go:noinline
func auditClock() {
	if c, ok := activeClock.Load().c.(*coarseClock); ok {
		c.audit()
	}
}
