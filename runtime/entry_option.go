package runtime

// EntryOption adjusts one Entry call. It is a small value, not a function, so
// passing options does not allocate.
type EntryOption struct {
	acquire     int32 // 0: unchanged
	prioritized bool
}

// MaxAcquireCount is the largest count AcquireCount gives a call. The
// window counters hold counts below 2^40 per bucket; at this size a bucket
// holds 2^20 such calls, and the response-time sum (milliseconds times the
// count) of a call lasting up to 2^20 ms (about 17 minutes) stays exact.
// Beyond that a counter saturates at 2^40-1 rather than wrap. A call asking
// for more is refused (see AcquireCount), never counted as less.
const MaxAcquireCount = 1 << 20

// overAcquire is what AcquireCount stores for a count over MaxAcquireCount:
// Entry refuses such a call.
const overAcquire = MaxAcquireCount + 1

// AcquireCount makes the call count as n calls (n >= 1) against QPS rules,
// as for a batch of n items. Values below 1 are treated as 1. A call with n
// above MaxAcquireCount is refused: Entry returns a flow *BlockError whose
// Rule names the cap (AcquireOverMaxRule), whatever the resource's rules,
// since the counters could not count it exactly.
func AcquireCount(n int) EntryOption {
	n = min(max(n, 1), overAcquire)
	return EntryOption{acquire: int32(n)}
}

// Prioritized marks a call that may wait for capacity of the next window
// instead of being rejected by a QPS reject rule (Sentinel's prioritized
// entry, backed by borrowing from the next bucket). It waits, through the
// Clock, at most until that window starts and less than 500 ms. Calls that
// borrow do not count as passes of the current window: they already count in
// the window they borrowed from.
func Prioritized() EntryOption { return EntryOption{prioritized: true} }
