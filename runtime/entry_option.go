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
// Beyond that a counter saturates at 2^40-1 rather than wrap.
const MaxAcquireCount = 1 << 20

// AcquireCount makes the call count as n calls (n >= 1) against QPS rules,
// as for a batch of n items. Values below 1 are treated as 1, values above
// MaxAcquireCount as MaxAcquireCount.
func AcquireCount(n int) EntryOption {
	n = min(max(n, 1), MaxAcquireCount)
	return EntryOption{acquire: int32(n)}
}

// Prioritized marks a call that may wait for capacity of the next window
// instead of being rejected by a QPS reject rule (Sentinel's prioritized
// entry, backed by borrowing from the next bucket). It waits, through the
// Clock, at most until that window starts and less than 500 ms. Calls that
// borrow do not count as passes of the current window: they already count in
// the window they borrowed from.
func Prioritized() EntryOption { return EntryOption{prioritized: true} }
