package runtime

// EntryOption adjusts one Entry call. It is a small value, not a function, so
// passing options does not allocate.
type EntryOption struct {
	acquire     int32 // 0: unchanged
	prioritized bool
}

// AcquireCount makes the call count as n calls (n >= 1) against QPS rules,
// as for a batch of n items. Values below 1 are treated as 1.
func AcquireCount(n int) EntryOption {
	if n < 1 {
		n = 1
	}
	if n > 1<<30 {
		n = 1 << 30
	}
	return EntryOption{acquire: int32(n)}
}

// Prioritized marks a call that may wait for capacity of the next window
// instead of being rejected by a QPS reject rule (Sentinel's prioritized
// entry, backed by borrowing from the next bucket). It waits, through the
// Clock, at most until that window starts and less than 500 ms. Calls that
// borrow do not count as passes of the current window: they already count in
// the window they borrowed from.
func Prioritized() EntryOption { return EntryOption{prioritized: true} }
