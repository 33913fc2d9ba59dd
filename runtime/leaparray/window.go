package leaparray

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// Layout of one counter word: window tag in the upper tagBits bits, count in
// the lower countBits bits.
const (
	countBits = 40
	tagBits   = 64 - countBits
	countMask = uint64(1)<<countBits - 1
	tagMask   = uint64(1)<<tagBits - 1
	// A tag more than half the tag space ahead is treated as behind: this is
	// what makes comparisons survive the tag wrapping round (after 2^24
	// windows, about 97 days of 500 ms buckets).
	tagHalf = uint64(1) << (tagBits - 1)
)

// MaxDelta is the largest value a single Add may carry. A bucket's count must
// also stay below it; the runtime adds at most a few thousand per call.
const MaxDelta = int64(countMask)

// wordsPerLine is how many uint64 words share one 64-byte cache line. Each
// stripe of a bucket is padded to whole lines so that writers on different
// processors never write the same line.
const wordsPerLine = 8

// maxStripes caps how many stripes a bucket is split into.
const maxStripes = 8

// Window is a ring of time buckets, each holding a fixed number of counters.
// Every counter of every bucket is split into stripes, one per processor (up
// to maxStripes): a writer adds to the stripe of the processor it runs on and
// a reader sums all stripes, so concurrent writers on different cores do not
// bounce one cache line between them. All methods are safe for concurrent use
// and never block or allocate.
type Window struct {
	intervalMs int64
	widthMs    int64
	invWidth   float64 // 1/widthMs: a multiply is several times cheaper than a divide
	buckets    int64
	bucketMask uint64 // buckets-1 when buckets is a power of two, else 0
	counters   int
	stride     int // words per stripe: counters rounded up to a cache line
	stripes    int
	stripeMask int
	words      []atomic.Uint64

	// Borrowed counts for current and future windows, one word per window,
	// in a ring of buckets+lookahead slots so that a window being borrowed
	// into never shares a slot with a window still inside the interval.
	lookahead  int64
	borrowMask uint64 // the borrowed ring's size is a power of two
	borrowed   []atomic.Uint64
}

// Config describes a Window.
type Config struct {
	// IntervalMs is the span a Count covers, in milliseconds.
	IntervalMs int64
	// Buckets is how many buckets the interval is split into; IntervalMs
	// must be a multiple of it.
	Buckets int
	// Counters is how many independent counters each bucket holds (1 to 64).
	Counters int
	// Lookahead is how many future windows may be borrowed into (0 disables
	// borrowing).
	Lookahead int
}

// New builds a Window from cfg.
func New(cfg Config) (*Window, error) {
	switch {
	case cfg.IntervalMs <= 0:
		return nil, errors.New("leaparray: IntervalMs must be positive")
	case cfg.Buckets <= 0:
		return nil, errors.New("leaparray: Buckets must be positive")
	case cfg.IntervalMs%int64(cfg.Buckets) != 0:
		return nil, fmt.Errorf("leaparray: IntervalMs %d is not a multiple of Buckets %d", cfg.IntervalMs, cfg.Buckets)
	case cfg.Counters <= 0 || cfg.Counters > 64:
		return nil, errors.New("leaparray: Counters must be between 1 and 64")
	case cfg.Lookahead < 0:
		return nil, errors.New("leaparray: Lookahead must not be negative")
	}
	stride := (cfg.Counters + wordsPerLine - 1) / wordsPerLine * wordsPerLine
	stripes := stripeCount()
	w := &Window{
		intervalMs: cfg.IntervalMs,
		widthMs:    cfg.IntervalMs / int64(cfg.Buckets),
		invWidth:   float64(cfg.Buckets) / float64(cfg.IntervalMs),
		buckets:    int64(cfg.Buckets),
		counters:   cfg.Counters,
		stride:     stride,
		stripes:    stripes,
		stripeMask: stripes - 1,
		words:      make([]atomic.Uint64, stride*stripes*cfg.Buckets),
		lookahead:  int64(cfg.Lookahead),
	}
	if cfg.Buckets&(cfg.Buckets-1) == 0 {
		w.bucketMask = uint64(cfg.Buckets - 1)
	}
	if cfg.Lookahead > 0 {
		ring := 1
		for ring < cfg.Buckets+cfg.Lookahead {
			ring *= 2
		}
		w.borrowed = make([]atomic.Uint64, ring)
		w.borrowMask = uint64(ring - 1)
	}
	return w, nil
}

// MustNew is New for configurations known to be valid; it panics otherwise.
func MustNew(cfg Config) *Window {
	w, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return w
}

// NewSecond builds Sentinel's default second-level window: 1000 ms in 2
// buckets of 500 ms, with one window of lookahead for borrowing.
func NewSecond(counters int) *Window {
	return MustNew(Config{IntervalMs: 1000, Buckets: 2, Counters: counters, Lookahead: 1})
}

// IntervalMs is the span Count covers.
func (w *Window) IntervalMs() int64 { return w.intervalMs }

// WidthMs is the width of one bucket.
func (w *Window) WidthMs() int64 { return w.widthMs }

// Buckets is the number of buckets in the interval.
func (w *Window) Buckets() int { return int(w.buckets) }

// windowID is the number of the window that contains nowMs (floor
// division, so times before zero still map to distinct windows).
func (w *Window) windowID(nowMs int64) int64 {
	if nowMs >= 0 && nowMs < 1<<52 {
		// Estimate with a multiply and fix the rounding error, which is at
		// most one either way for times below 2^52 ms.
		id := int64(float64(nowMs) * w.invWidth)
		if start := id * w.widthMs; start > nowMs {
			id--
		} else if start+w.widthMs <= nowMs {
			id++
		}
		return id
	}
	id := nowMs / w.widthMs
	if nowMs%w.widthMs != 0 {
		id--
	}
	return id
}

// slot is the ring position of window id.
func (w *Window) slot(id int64) int {
	if w.bucketMask != 0 || w.buckets == 1 {
		return int(uint64(id) & w.bucketMask)
	}
	s := id % w.buckets
	if s < 0 {
		s += w.buckets
	}
	return int(s)
}

// borrowSlot is the position of window id in the borrowed ring.
func (w *Window) borrowSlot(id int64) int { return int(uint64(id) & w.borrowMask) }

// WindowStart is the start of the bucket that contains nowMs.
func (w *Window) WindowStart(nowMs int64) int64 { return w.windowID(nowMs) * w.widthMs }

// add performs the tagged compare-and-swap described in the package doc and
// reports whether the delta was recorded (false when the word already belongs
// to a newer window, i.e. the caller's time is stale).
func add(p *atomic.Uint64, id int64, delta uint64) bool {
	tag := uint64(id) & tagMask
	for {
		old := p.Load()
		oldTag := old >> countBits
		var next uint64
		switch {
		case oldTag == tag:
			next = old + delta
		case (tag-oldTag)&tagMask < tagHalf || old&countMask == 0:
			// The word belongs to an older window, or holds nothing worth
			// keeping (as every word does at first): reset it.
			next = tag<<countBits | delta
		default:
			return false
		}
		if p.CompareAndSwap(old, next) {
			return true
		}
	}
}

// countIn returns the count p holds for window id, or 0 when p holds another
// window.
func countIn(p *atomic.Uint64, id int64) int64 {
	v := p.Load()
	if v>>countBits != uint64(id)&tagMask {
		return 0
	}
	return int64(v & countMask)
}

// Cursor is a Window positioned at one instant and on the calling
// processor's stripe. Taking a Cursor once and using it for several counters
// saves repeating the time arithmetic; it stays valid for any later use (a
// late write through it lands in its own bucket or is dropped as stale).
type Cursor struct {
	w    *Window
	id   int64
	base int // index of counter 0 of the cursor's stripe in its bucket
}

// At positions a Cursor at nowMs on the calling processor's stripe.
func (w *Window) At(nowMs int64) Cursor {
	id := w.windowID(nowMs)
	return Cursor{w: w, id: id, base: (w.slot(id)*w.stripes + (stripeHint() & w.stripeMask)) * w.stride}
}

// Add adds delta (0 <= delta <= MaxDelta) to counter in the cursor's bucket.
// It reports false when the bucket has already moved on to a later window,
// which only happens when the cursor's time is older than the newest write
// by a whole interval; such a write belongs to a window no read can see.
func (c Cursor) Add(counter int, delta int64) bool {
	return add(&c.w.words[c.base+counter], c.id, uint64(delta))
}

// Count sums counter over the interval that ends in the cursor's bucket.
func (c Cursor) Count(counter int) int64 { return c.w.count(c.id, counter) }

// CountWithBorrowed is Count plus what was borrowed into the interval (see
// BorrowedIn), in one pass over the time arithmetic.
func (c Cursor) CountWithBorrowed(counter int) int64 {
	n := c.w.count(c.id, counter)
	if c.w.lookahead != 0 {
		n += c.w.borrowedIn(c.id)
	}
	return n
}

// Add adds delta to counter in the bucket containing nowMs; see Cursor.Add.
func (w *Window) Add(nowMs int64, counter int, delta int64) bool {
	return w.At(nowMs).Add(counter, delta)
}

// Count sums counter over the buckets of the interval that ends in the bucket
// containing nowMs. Borrowed counts are not included; see BorrowedIn.
func (w *Window) Count(nowMs int64, counter int) int64 {
	return w.count(w.windowID(nowMs), counter)
}

func (w *Window) count(cur int64, counter int) int64 {
	var sum int64
	for id := cur - w.buckets + 1; id <= cur; id++ {
		sum += w.bucketCount(id, counter)
	}
	return sum
}

// bucketCount sums counter over the stripes of window id's bucket.
func (w *Window) bucketCount(id int64, counter int) int64 {
	var sum int64
	line := w.stripes * w.stride
	base := w.slot(id)*line + counter
	for i := base; i < base+line; i += w.stride {
		sum += countIn(&w.words[i], id)
	}
	return sum
}

// BucketCount is counter in the single bucket that contains atMs, as long as
// that bucket has not been reused since (0 otherwise).
func (w *Window) BucketCount(atMs int64, counter int) int64 {
	return w.bucketCount(w.windowID(atMs), counter)
}

// Previous is counter in the bucket just before the one containing nowMs.
// With 1000 ms buckets this is the previous second's count.
func (w *Window) Previous(nowMs int64, counter int) int64 {
	return w.BucketCount(nowMs-w.widthMs, counter)
}

// Lookahead is how many future windows Borrow may reach.
func (w *Window) Lookahead() int { return int(w.lookahead) }

// Borrow records delta as already used in the window containing atMs, which
// must lie after the window containing nowMs by at most Lookahead windows. It
// reports false when the target is out of range or borrowing is disabled.
func (w *Window) Borrow(nowMs, atMs int64, delta int64) bool {
	cur, target := w.windowID(nowMs), w.windowID(atMs)
	if w.lookahead == 0 || target <= cur || target > cur+w.lookahead {
		return false
	}
	return add(&w.borrowed[w.borrowSlot(target)], target, uint64(delta))
}

// Waiting is the total borrowed into windows still ahead of nowMs: capacity
// already promised to callers that are waiting for their window.
func (w *Window) Waiting(nowMs int64) int64 {
	if w.lookahead == 0 {
		return 0
	}
	cur := w.windowID(nowMs)
	var sum int64
	for id := cur + 1; id <= cur+w.lookahead; id++ {
		sum += countIn(&w.borrowed[w.borrowSlot(id)], id)
	}
	return sum
}

// BorrowedIn is the total borrowed into the buckets of the interval that
// ends in the bucket containing nowMs: capacity those buckets gave to
// callers that waited for them.
func (w *Window) BorrowedIn(nowMs int64) int64 {
	if w.lookahead == 0 {
		return 0
	}
	return w.borrowedIn(w.windowID(nowMs))
}

func (w *Window) borrowedIn(cur int64) int64 {
	var sum int64
	for id := cur - w.buckets + 1; id <= cur; id++ {
		sum += countIn(&w.borrowed[w.borrowSlot(id)], id)
	}
	return sum
}

// BorrowedAt is what was borrowed into the single bucket containing atMs.
func (w *Window) BorrowedAt(atMs int64) int64 {
	if w.lookahead == 0 {
		return 0
	}
	id := w.windowID(atMs)
	return countIn(&w.borrowed[w.borrowSlot(id)], id)
}

// Reset clears every bucket. Writes racing with Reset may survive it; the
// runtime only resets a breaker's window at a state change, where that is
// harmless.
func (w *Window) Reset() {
	for i := range w.words {
		w.words[i].Store(0)
	}
	for i := range w.borrowed {
		w.borrowed[i].Store(0)
	}
}
