package coarseclock

import (
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// AuditEvery is how many recordings (passes and blocks) each processor
// makes between two audits of the clock (Clock.Audit). It bounds how many
// calls per processor can see a starved cache before reads turn real. A
// power of two.
const AuditEvery = 64

// Audits counts recordings per processor to time the audits, so that
// deciding when to audit costs a load and a plain store on a line the
// processor owns, inside the recording's pinned section, rather than a
// shared atomic counter that every core would bounce.
type Audits struct {
	owned  int
	words  []atomic.Uint64 // one cache line per owned processor
	shared atomic.Uint64   // processors beyond owned, and builds without pinning
}

// NewAudits returns counts with a line for each processor that owns
// stripes (stripe.Count).
func NewAudits() *Audits { return newAudits(stripe.Count()) }

// newAudits returns counts with owned per-processor lines.
func newAudits(owned int) *Audits {
	return &Audits{owned: owned, words: make([]atomic.Uint64, owned*8)}
}

// Due counts one recording on p (the caller is pinned to p) and reports
// whether this one should audit the clock: every AuditEvery-th on each
// processor. Processors without a line of their own (beyond the lines, or
// every processor in a build without pinning) share one count, with an
// atomic add.
func (a *Audits) Due(p stripe.P) bool {
	i := p.Index()
	if uint(i) >= uint(a.owned) {
		return a.shared.Add(1)&(AuditEvery-1) == 0
	}
	w := &a.words[i*8]
	n := w.Load() + 1
	stripe.Store(w, n)
	return n&(AuditEvery-1) == 0
}

// DueAt reports whether the recording numbered seq on its processor (a
// count that rises by one per recording, such as an exit ticket's sequence
// number) should audit the clock, for callers that count their recordings
// already.
func DueAt(seq uint64) bool { return seq&(AuditEvery-1) == 0 }
