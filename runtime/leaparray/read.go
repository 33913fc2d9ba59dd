package leaparray

import "unsafe"

// ReadBucket adds the counters of window id's single bucket, summed over all
// stripes, into dst (dst[c] += counter c, for c < len(dst)), for a reader
// that samples buckets after they end (the metrics ring). It only loads: no
// write, no lock, nothing on the writers' path.
//
// complete is false when some word of the bucket already belongs to a later
// window, i.e. the bucket's slot was reused before this read: the counts of
// those words are lost and not added. A word still tagged with an older
// window holds nothing for id and counts 0, which is exact (nobody wrote
// it in window id). So a complete read is exact, and an incomplete one is
// known to be short: a late reader can tell a missed bucket from a quiet one.
func (w *Window) ReadBucket(id int64, dst []int64) (complete bool) {
	n := min(len(dst), int(w.counters))
	tag := uint64(id) & tagMask
	off := uintptr(w.slot(id)) * w.stripeBytes
	complete = true
	w.eachStripe(func(first unsafe.Pointer) {
		for c := range n {
			v := wordIn(first, off+uintptr(c)*wordBytes).Load()
			switch t := v >> countBits; {
			case t == tag:
				dst[c] += int64(v & countMask)
			case v != 0 && (t-tag)&tagMask < tagHalf:
				// Tagged ahead of id: a later window reset it. (A zero
				// word was never written.)
				complete = false
			}
		}
	})
	return complete
}

// BorrowedAtID is what was borrowed into window id (see BorrowedAt), and
// whether that is still known: false when id's slot of the borrowed ring
// already holds a later window.
func (w *Window) BorrowedAtID(id int64) (n int64, complete bool) {
	if !w.everBorrowed.Load() {
		return 0, true
	}
	v := w.borrowWord(id).Load()
	switch t, tag := v>>countBits, uint64(id)&tagMask; {
	case t == tag:
		return int64(v & countMask), true
	case v != 0 && (t-tag)&tagMask < tagHalf:
		return 0, false
	}
	return 0, true
}
