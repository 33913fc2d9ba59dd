package runtime

import (
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/internal/tally"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// Blocked counts the calls (times their acquire count) this error was
// returned for since its rule was loaded, modulo 2³²: read it at least once
// per 2³² blocks and take differences in uint32 arithmetic (uint32(b-a)),
// as the block log and the Prometheus exporter do. A reload that leaves a
// flow or param-flow rule unchanged at the same index keeps its error, and
// so the count; otherwise the rule's new error counts from zero, and
// readers that track errors by pointer never count a block twice. It costs
// the block path one atomic add (two for a param-flow block) or, once the
// resource is blocked on several processors at a time, a plain store on the
// processor's own cache line; reading it then sums up to 16 counts. A param-flow rule's error, as BlockErrors lists it, counts
// the rule's blocks over all its values; the per-value errors returned to
// callers count their value's.
func (e *BlockError) Blocked() uint32 { return atomic.LoadUint32(&e.blocked) + e.tallied() }

// BlockErrors appends to buf the block errors of the rules in force for the
// resource and returns the extended slice: with Blocked, what blocked the
// resource's calls, rule by rule. It lists the flow rules (in check order),
// the circuit breakers, the param-flow rules (in load order: one error per
// rule, with no Value, standing for the errors of its refused values), the
// authority rules' errors (one per listed or refused origin, sorted by
// description) and the system-protection errors of the resource (once it
// has had a system block).
func (r *Resource) BlockErrors(buf []*BlockError) []*BlockError {
	if rs := r.rules.Load(); rs != nil {
		for _, f := range rs.flow {
			buf = append(buf, f.blocked)
		}
		for _, b := range rs.degrade {
			buf = append(buf, b.blocked)
		}
		if rs.param != nil {
			for _, p := range rs.param.rules {
				buf = append(buf, p.blocked)
			}
		}
		if rs.extras != nil {
			from := len(buf)
			for _, a := range rs.extras.authority {
				for _, be := range a.listed {
					if be != nil {
						buf = append(buf, be)
					}
				}
				a.refused.Range(func(_, v any) bool {
					buf = append(buf, v.(*BlockError))
					return true
				})
			}
			// Maps have no order; readers want a stable one.
			slices.SortFunc(buf[from:], func(a, b *BlockError) int { return strings.Compare(a.Rule(), b.Rule()) })
		}
	}
	if g := systemGuard.Load(); g != nil {
		if errs, ok := g.errs.Load(r); ok {
			buf = append(buf, errs.(*[sysMetrics]*BlockError)[:]...)
		}
	}
	return buf
}

// Counting blocks without a write every core shares.
//
// An error blocked while its resource's second-level window has stripes on
// more than one processor (leaparray.Window.Stripes, the window's own sign
// of contention) gets a tally (see package tally): a count per processor,
// written by the pinned caller with a plain store. Blocked adds the
// tally's sum to the shared count. An error blocked from one processor at a
// time never gets a tally, and a processor without a cell (a higher index
// than the tally has, or a build without pinning) goes on with the atomic
// add.

// countPinned adds n to the calls e was returned for on p's cell of its
// tally, and reports whether it did: false when e has no tally yet or p no
// cell, and the caller must then call countShared. The caller is pinned to
// p.
func (e *BlockError) countPinned(p stripe.P, n uint32) bool {
	t := (*tally.Tally)(atomic.LoadPointer(&e.tally))
	return t != nil && t.Add(p, n)
}

// countShared adds n to the calls e was returned for with an atomic add,
// the count of errors without a tally (and of processors without a cell).
// Call it unpinned.
func (e *BlockError) countShared(n uint32) { atomic.AddUint32(&e.blocked, n) }

// checkTally gives e a tally when w, the blocked resource's second-level
// window, has stripes on more than one processor, unless e has one. The
// block paths call it with their clock audit, once every
// coarseclock.AuditEvery recordings on the processor, which keeps w off the
// block path, and a contended error still gets its tally within a few
// dozen blocks. Call it unpinned: making the tally allocates.
//
//go:noinline
func (e *BlockError) checkTally(w *leaparray.Window) {
	if w.Stripes() > 1 && atomic.LoadPointer(&e.tally) == nil {
		atomic.CompareAndSwapPointer(&e.tally, nil, unsafe.Pointer(tally.New()))
	}
}

// tallied is the sum of e's tally, modulo 2³² as Blocked is.
func (e *BlockError) tallied() uint32 {
	if t := (*tally.Tally)(atomic.LoadPointer(&e.tally)); t != nil {
		return t.Sum()
	}
	return 0
}
