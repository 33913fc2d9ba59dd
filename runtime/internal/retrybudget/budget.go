// Package retrybudget bounds the retries of a resource to a share of its
// calls, so that a failing dependency never sees its load multiplied by the
// retries meant to hide its failures (as gRPC's retry throttling and Envoy's
// retry budgets do).
//
// A Budget counts calls and retries over a sliding window of ten one-second
// buckets. A retry is allowed while the window's retries stay within the
// ratio of its calls, with at least one retry per window, so that a resource
// called a few times a minute can still retry. What it costs: one atomic add
// per call; a retry reads the ten buckets. The counts are approximate where
// a bucket turns over while others write it, and concurrent retries may pass
// the bound together by at most their number.
package retrybudget

import "sync/atomic"

// Buckets is the window's number of one-second buckets.
const Buckets = 10

// Budget is the retry budget of one resource. It is safe for concurrent use.
type Budget struct {
	ratio   float64
	buckets [Buckets]bucket
}

type bucket struct {
	second  atomic.Int64 // the second the counts belong to, +1 (0: never used)
	calls   atomic.Int64
	retries atomic.Int64
}

// New returns a budget allowing retries up to ratio (0 < ratio <= 1) of the
// calls in its window.
func New(ratio float64) *Budget { return &Budget{ratio: ratio} }

// Ratio is the share of calls that may be retried.
func (b *Budget) Ratio() float64 { return b.ratio }

// current returns the bucket of the second of nowMs, emptied when it held
// an older second's counts.
func (b *Budget) current(nowMs int64) *bucket {
	sec := nowMs/1000 + 1
	bk := &b.buckets[sec%Buckets]
	if old := bk.second.Load(); old != sec && bk.second.CompareAndSwap(old, sec) {
		bk.calls.Store(0)
		bk.retries.Store(0)
	}
	return bk
}

// Call counts a call (its first attempt) at time nowMs.
func (b *Budget) Call(nowMs int64) { b.current(nowMs).calls.Add(1) }

// TryRetry reports whether a retry at time nowMs fits the budget, and if it
// does counts it.
func (b *Budget) TryRetry(nowMs int64) bool {
	cur := b.current(nowMs)
	sec := nowMs/1000 + 1
	var calls, retries int64
	for i := range b.buckets {
		bk := &b.buckets[i]
		if s := bk.second.Load(); s > sec-Buckets && s <= sec {
			calls += bk.calls.Load()
			retries += bk.retries.Load()
		}
	}
	if float64(retries+1) > b.ratio*float64(calls) && retries >= 1 {
		return false
	}
	cur.retries.Add(1)
	return true
}
