package leaparray

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/procslots"
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
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

// MaxDelta is the largest count a bucket's counter holds: larger deltas,
// and counts that would grow past it, saturate at MaxDelta.
const MaxDelta = int64(countMask)

// wordsPerLine is how many uint64 words share one 64-byte cache line. Each
// stripe of a bucket is padded to whole lines so that writers on different
// processors never write the same line.
const wordsPerLine = 8

const wordBytes = 8 // size of one counter word

// Window is a ring of time buckets, each holding a fixed number of counters.
// Every counter of every bucket is split into stripes: a shared stripe,
// written with compare-and-swap by anyone, and stripes owned by processors
// (up to maxOwned), each written by its processor alone while pinned to it.
// Owned stripes are allocated lazily, where a window is written hard (see
// stripes.go), so an idle or lightly used window holds one stripe whatever
// the core count. A reader sums all stripes, so concurrent writers on
// different cores do not bounce one cache line between them. All methods
// are safe for concurrent use and never block; only the write that claims
// a processor's stripe allocates.
type Window struct {
	// widthMs is a bucket's span; the interval, Buckets of them, is not
	// kept apart, as only reads off the request path ask for it.
	widthMs  int64
	invWidth float64 // 1/widthMs: a multiply is several times cheaper than a divide
	// bucketMask maps a window ID to its slot. The ring has Buckets slots
	// rounded up to a power of two, so that the mapping is a mask, not a
	// division; the interval's Buckets consecutive IDs still get distinct
	// slots, and tags make the spare slots' contents harmless.
	//
	// buckets and bucketMask are 32-bit (Buckets is at most a few hundred),
	// side by side, as are counters and lookahead (see the borrowed ring),
	// and sharedUsed and everBorrowed: with the borrowed ring held by its
	// first word and the processors' stripes by a procslots.Table, a
	// Window fits the allocator's 112-byte class, and a resource has two
	// or more.
	buckets    int32
	bucketMask uint32
	counters   int32
	lookahead  int32
	// stripeBytes is the size of one bucket of a stripe: counters rounded
	// up to whole cache lines.
	stripeBytes uintptr
	// shared is counter 0 of slot 0 of the shared stripe. The hot paths
	// address words by pointer arithmetic from it and from owned stripes'
	// first words: this spares a bounds check per word read (indexes are
	// computed from the geometry, never from callers, except counter, which
	// is checked once per call).
	shared unsafe.Pointer
	// sharedUsed turns true with the first write to the shared stripe; until
	// then reads skip it.
	sharedUsed   atomic.Bool
	everBorrowed atomic.Bool // lets reads skip the borrowed ring until someone borrows
	// Owned stripes, see stripes.go: slot i of procs is processor i's
	// stripe, or nil until it claims one. A procslots.Table rather than an
	// array: nearly every slot stays nil, and the table is one word until
	// a processor claims a stripe.
	procs procslots.Table
	// hi is one more than the highest processor index with a stripe, and
	// claimed how many processors have one.
	hi, claimed atomic.Int32
	// gauge gets a processor's stripe when the window does (see
	// Window.NewGauge); nil if none follows the window.
	gauge atomic.Pointer[Gauge]

	// Borrowed counts for current and future windows, one word per window,
	// in a ring of buckets+lookahead slots so that a window being borrowed
	// into never shares a slot with a window still inside the interval.
	// borrowed is the ring's first word (nil without lookahead); the ring
	// has borrowMask+1 words, a power of two.
	borrowMask uint64
	borrowed   *atomic.Uint64

	// bound is the bookkeeping behind FitsPinned's cached answers; nil
	// unless Config.Bounded.
	bound *bound
	// xorLimit is TryAdd's bound on old^new: boundStep when Bounded, else
	// anything that leaves the tag bits alone.
	xorLimit uint64
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
	// Bounded keeps the bookkeeping that lets FitsPinned answer for counter
	// 0 without reading other processors' stripes unless the count is near
	// the limit (see FitsPinned). It costs a cache line per window and one
	// per owned stripe, and one atomic add per 64 counts per processor.
	Bounded bool
}

// maxConfigBuckets bounds Config.Buckets, so that the bucket count and
// the ring's mask fit the Window's 32-bit fields.
const maxConfigBuckets = 1 << 24

// New builds a Window from cfg.
func New(cfg Config) (*Window, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	l := cfg.layout()
	w := new(Window)
	w.build(cfg, l, alignedWords(l.words))
	return w, nil
}

// check reports what makes cfg invalid, if anything.
func (cfg Config) check() error {
	switch {
	case cfg.IntervalMs <= 0:
		return errors.New("leaparray: IntervalMs must be positive")
	case cfg.Buckets <= 0:
		return errors.New("leaparray: Buckets must be positive")
	case cfg.Buckets > maxConfigBuckets:
		return fmt.Errorf("leaparray: Buckets must be at most %d", maxConfigBuckets)
	case cfg.IntervalMs%int64(cfg.Buckets) != 0:
		return fmt.Errorf("leaparray: IntervalMs %d is not a multiple of Buckets %d", cfg.IntervalMs, cfg.Buckets)
	case cfg.Counters <= 0 || cfg.Counters > 64:
		return errors.New("leaparray: Counters must be between 1 and 64")
	case cfg.Lookahead < 0:
		return errors.New("leaparray: Lookahead must not be negative")
	}
	return nil
}

// layout is where a window's words go in the one buffer that holds them.
type layout struct {
	stride, ring int // words per bucket of a stripe, buckets in the ring
	// words is the buffer's length; boundAt and borrowAt are the first
	// words of the bound's line and of the borrowed ring (0: none).
	words, boundAt, borrowAt int
	borrowRing               int // words in the borrowed ring
}

// layout places a window's words: the shared stripe, then the bound's
// line, then the borrowed ring, in the bound line's spare words when it
// fits (borrowing is rare, so its writes seldom disturb the line). One
// buffer for all of them, because a resource has several windows and large
// loads make many resources at once.
func (cfg Config) layout() layout {
	l := layout{stride: (cfg.Counters + wordsPerLine - 1) / wordsPerLine * wordsPerLine, ring: ringSize(cfg.Buckets)}
	l.words = l.stride * l.ring
	if cfg.Bounded && stripe.Linked {
		l.boundAt, l.words = l.words, l.words+wordsPerLine
	}
	if cfg.Lookahead > 0 {
		l.borrowRing = ringSize(cfg.Buckets + cfg.Lookahead)
		if l.boundAt != 0 && l.borrowRing <= boundSpare {
			l.borrowAt = l.boundAt + wordsPerLine - boundSpare
		} else {
			l.borrowAt, l.words = l.words, l.words+l.borrowRing
		}
	}
	return l
}

// build makes the zero window w the one cfg describes, laid out as l in
// buf: l.words zeroed words starting on a cache line (see alignedWords).
func (w *Window) build(cfg Config, l layout, buf []atomic.Uint64) {
	w.widthMs = cfg.IntervalMs / int64(cfg.Buckets)
	w.invWidth = float64(cfg.Buckets) / float64(cfg.IntervalMs)
	w.buckets = int32(cfg.Buckets)
	w.bucketMask = uint32(l.ring - 1)
	w.counters = int32(cfg.Counters)
	w.stripeBytes = uintptr(l.stride) * wordBytes
	w.shared = unsafe.Pointer(&buf[0])
	w.procs.Init()
	w.lookahead = int32(cfg.Lookahead)
	w.xorLimit = 1 << countBits
	if l.boundAt != 0 {
		w.bound = (*bound)(unsafe.Pointer(&buf[l.boundAt])) // a line of words: bound's layout
		w.xorLimit = boundStep
	}
	if l.borrowRing > 0 {
		w.borrowed = &buf[l.borrowAt]
		w.borrowMask = uint64(l.borrowRing - 1)
	}
}

// ringSize is the smallest power of two holding n slots.
func ringSize(n int) int {
	ring := 1
	for ring < n {
		ring *= 2
	}
	return ring
}

// alignedWords returns n zeroed words starting on a cache-line boundary, so
// that each stripe (a whole number of lines) really has its lines to itself.
// A request rounded up to whole lines comes back aligned from the Go
// allocator (the size classes such requests fall in are multiples of a
// line, in page-aligned spans), which spares padding; the fallback pads.
// The words hold no pointers, so the garbage collector never scans them.
func alignedWords(n int) []atomic.Uint64 {
	if !padAlways {
		if buf := make([]atomic.Uint64, lines(n)); onLine(&buf[0]) {
			return buf[:n:n]
		}
	}
	return alignIn(make([]atomic.Uint64, n+wordsPerLine-1), n)
}

// padAlways makes alignedWords take its fallback, for tests: the allocator
// never returns an unaligned buffer to them otherwise.
var padAlways = false

// lines is n words rounded up to whole cache lines.
func lines(n int) int { return (n + wordsPerLine - 1) / wordsPerLine * wordsPerLine }

// onLine reports whether p starts a cache line.
func onLine(p *atomic.Uint64) bool { return uintptr(unsafe.Pointer(p))%(wordsPerLine*wordBytes) == 0 }

// alignIn returns the first n words of buf that start on a cache line; buf
// must have n+wordsPerLine-1 words at least.
func alignIn(buf []atomic.Uint64, n int) []atomic.Uint64 {
	skip := 0
	for !onLine(&buf[skip]) {
		skip++
	}
	return buf[skip : skip+n : skip+n]
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
// buckets of 500 ms, with one window of lookahead for borrowing, Bounded for
// flow checks on counter 0.
func NewSecond(counters int) *Window { return MustNew(secondConfig(counters)) }

// secondConfig is NewSecond's configuration.
func secondConfig(counters int) Config {
	return Config{IntervalMs: 1000, Buckets: 2, Counters: counters, Lookahead: 1, Bounded: true}
}

// IntervalMs is the span Count covers.
func (w *Window) IntervalMs() int64 { return w.widthMs * int64(w.buckets) }

// WidthMs is the width of one bucket.
func (w *Window) WidthMs() int64 { return w.widthMs }

// Buckets is the number of buckets in the interval.
func (w *Window) Buckets() int { return int(w.buckets) }

// SecondWidthMs is the bucket width of NewSecond's windows, Sentinel's
// second-level window (1000 ms in 2 buckets), which windowID computes
// without the float path.
const SecondWidthMs = 500

const defaultWidthMs = SecondWidthMs

// windowID is the number of the window that contains nowMs (floor
// division, so times before zero still map to distinct windows).
func (w *Window) windowID(nowMs int64) int64 {
	if nowMs >= 0 {
		// The width of every second-level window, and the one bucket of a
		// breaker with the default statIntervalMs: division by a constant
		// compiles to a multiply and a shift, a few cycles against the
		// dozen of the float path below.
		switch w.widthMs {
		case defaultWidthMs:
			return int64(uint64(nowMs) / defaultWidthMs)
		case 1000:
			return int64(uint64(nowMs) / 1000)
		}
	}
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
	// Go's division truncates towards zero: only a negative time with a
	// remainder needs moving down to floor. (This once decremented every
	// time with a remainder, putting times from 2^52 ms on in the window
	// before their own.)
	id := nowMs / w.widthMs
	if nowMs%w.widthMs < 0 {
		id--
	}
	return id
}

// slot is the ring position of window id.
func (w *Window) slot(id int64) int { return int(uint64(id) & uint64(w.bucketMask)) }

// borrowSlot is the position of window id in the borrowed ring.
func (w *Window) borrowSlot(id int64) int { return int(uint64(id) & w.borrowMask) }

// borrowWord is the borrowed ring's word for window ID id (the window has
// lookahead).
func (w *Window) borrowWord(id int64) *atomic.Uint64 {
	return wordIn(unsafe.Pointer(w.borrowed), uintptr(w.borrowSlot(id))*wordBytes)
}

// ID is the number of the bucket-wide window containing nowMs. Windows with
// the same bucket width share IDs, so one ID can address several of them
// (see AtID and CountWithBorrowedAt).
//
// It inlines the second-level window's case (see windowID), which every
// Entry takes.
func (w *Window) ID(nowMs int64) int64 {
	if w.widthMs == defaultWidthMs && nowMs >= 0 {
		return int64(uint64(nowMs) / defaultWidthMs)
	}
	return w.windowID(nowMs)
}

// AtID is AtPinned for a window ID from ID.
func (w *Window) AtID(id int64, p stripe.P) Cursor { return w.cursor(id, p) }

// CountWithBorrowedAt is CountWithBorrowed for a window ID from ID.
func (w *Window) CountWithBorrowedAt(id int64, counter int) int64 {
	n := w.count(id, counter)
	if w.everBorrowed.Load() {
		n += w.borrowedIn(id)
	}
	return n
}

// WindowStart is the start of the bucket that contains nowMs.
func (w *Window) WindowStart(nowMs int64) int64 { return w.windowID(nowMs) * w.widthMs }

// add performs the tagged compare-and-swap described in the package doc and
// reports whether the delta was recorded (false when the word already belongs
// to a newer window, i.e. the caller's time is stale). before is the word's
// count for window id before the add.
// contended is true when a compare-and-swap failed on the way.
func add(p *atomic.Uint64, id int64, delta uint64) (before uint64, ok, contended bool) {
	tag := uint64(id) & tagMask
	for {
		old := p.Load()
		before, ok = countBefore(old, tag)
		if !ok {
			return 0, false, contended
		}
		if p.CompareAndSwap(old, tag<<countBits|saturated(before, delta)) {
			return before, true, contended
		}
		contended = true
	}
}

// saturated is count+delta, held at countMask: a count that reached the
// word's capacity stays there rather than carry into the tag (which would
// move the word to another window and lose the count).
func saturated(count, delta uint64) uint64 { return min(count+min(delta, countMask), countMask) }

// countBefore is what a word holding old counts for the window tagged tag:
// its count when the tags match, 0 when old belongs to an older window or
// holds nothing worth keeping (as every word does at first), so that a write
// resets it; ok is false when old belongs to a newer window.
func countBefore(old, tag uint64) (before uint64, ok bool) {
	oldTag := old >> countBits
	switch {
	case oldTag == tag:
		return old & countMask, true
	case (tag-oldTag)&tagMask < tagHalf || old&countMask == 0:
		return 0, true
	}
	return 0, false
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

// Cursor is a Window positioned at one instant and on one stripe. Taking a
// Cursor once and using it for several counters saves repeating the time
// arithmetic; it stays valid for any later use (a late write through it lands
// in its own bucket or is dropped as stale).
type Cursor struct {
	w   *Window
	id  int64
	ptr unsafe.Pointer // counter 0 of the cursor's stripe in its bucket
	// proc says whose stripe ptr is in: processor proc's own (proc >= 0),
	// on which the pinned processor's writes need no atomic
	// read-modify-write; or the shared one (proc < 0), written by
	// processor -2-proc, which may claim a stripe when it is below
	// maxOwned (see stripes.go), or unpinned (proc -1 or noProc). One word, written
	// whole: a cursor built field by field in partial words made copying it
	// stall on store forwarding.
	proc int
}

// noProc is the proc of a cursor that cannot claim a stripe.
const noProc = math.MinInt

// owned reports whether the cursor writes its processor's own stripe.
func (c Cursor) owned() bool { return c.proc >= 0 }

// At positions a Cursor at nowMs on the shared stripe. Its writes use
// compare-and-swap and are safe unpinned.
func (w *Window) At(nowMs int64) Cursor {
	id := w.windowID(nowMs)
	return Cursor{w: w, id: id, ptr: w.sharedAt(id), proc: noProc}
}

// AtPinned positions a Cursor at nowMs on the stripe of p, the processor
// the caller is pinned to (see package stripe). Use its writes only while
// pinned.
func (w *Window) AtPinned(nowMs int64, p stripe.P) Cursor {
	return w.cursor(w.windowID(nowMs), p)
}

func (w *Window) cursor(id int64, p stripe.P) Cursor {
	// Kept small enough to inline: it is on the path of every write. A
	// processor without a stripe of its own (a nil slot) writes the shared
	// one until it claims one (see Cursor.addSlow). It reads the slot
	// with procs.Load rather than stripeOf: one inlined call fewer keeps
	// it, and AtID around it, within the inliner's budget.
	i := p.Index()
	var first unsafe.Pointer
	if uint(i) < maxOwned {
		first = w.procs.Load(i)
	}
	if first == nil {
		first, i = w.shared, -2-i
	}
	return Cursor{w: w, id: id, ptr: unsafe.Add(first, uintptr(w.slot(id))*w.stripeBytes), proc: i}
}

// sharedAt is counter 0 of the shared stripe in window id's bucket.
func (w *Window) sharedAt(id int64) unsafe.Pointer {
	return unsafe.Add(w.shared, uintptr(w.slot(id))*w.stripeBytes)
}

// wordIn is the word at byte offset off from p.
func wordIn(p unsafe.Pointer, off uintptr) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Add(p, off))
}

func (w *Window) checkCounter(counter int) {
	if uint(counter) >= uint(w.counters) {
		counterOutOfRange(counter, int(w.counters))
	}
}

// counterOutOfRange panics; kept out of checkCounter so that the check
// inlines into the hot paths.
//
//go:noinline
func counterOutOfRange(counter, counters int) {
	panic(fmt.Sprintf("leaparray: counter %d out of range [0,%d)", counter, counters))
}

// On returns a cursor for w2 at the same stripe and at nowMs, the time c
// was made for: when w2's buckets have c's width the window ID is reused,
// sparing the time arithmetic.
func (c Cursor) On(w2 *Window, nowMs int64, p stripe.P) Cursor {
	if w2.widthMs == c.w.widthMs {
		return w2.cursor(c.id, p)
	}
	return w2.AtPinned(nowMs, p)
}

// Add adds delta (0 <= delta) to counter in the cursor's bucket. A count
// saturates at MaxDelta.
// It reports false when the bucket has already moved on to a later window,
// which only happens when the cursor's time is older than the newest write
// by a whole interval; such a write belongs to a window no read can see.
func (c Cursor) Add(counter int, delta int64) bool {
	if c.TryAdd(counter, delta) {
		return true
	}
	return c.addSlow(counter, uint64(delta))
}

// TryAdd is Add's common case alone, small enough to be inlined into a
// caller's hot path: a word of the cursor's own window on a stripe this
// processor owns takes a load and a plain store (stripe.Store), a fraction
// of a locked read-modify-write; readers, which load atomically, see the
// old or the new word. It reports false, having written nothing, in every
// other case; the caller then calls Add. old^next below the window's
// xorLimit means the tag bits did not change (no carry from the count, no
// delta beyond MaxDelta) and, on a Bounded window, that the count crossed
// no multiple of boundStep, which counter 0 must announce (addSlow does;
// other counters take that path too, once per boundStep counts, to keep
// this test one comparison).
func (c Cursor) TryAdd(counter int, delta int64) bool {
	if uint(counter) < uint(c.w.counters) && c.proc >= 0 {
		p := (*atomic.Uint64)(unsafe.Add(c.ptr, uintptr(counter)*wordBytes))
		old := p.Load()
		if next := old + uint64(delta); old>>countBits == uint64(c.id)&tagMask && old^next < c.w.xorLimit {
			stripe.Store(p, next)
			return true
		}
	}
	return false
}

// addSlow is Add for the other cases: a word to reset for the cursor's
// window, a stale cursor, the shared stripe, and counter 0 of a Bounded
// window, whose writes announce crossings (see boundStep).
func (c Cursor) addSlow(counter int, delta uint64) bool {
	w := c.w
	w.checkCounter(counter)
	if i := -2 - c.proc; c.proc < 0 && uint(i) < maxOwned {
		// A pinned writer without a stripe of its own: take one if the
		// window has none yet (its first writer), or use the one it
		// claimed since the cursor was made; otherwise write the shared
		// stripe, and claim a stripe if that write met contention or found
		// the shared stripe busy (see stripes.go).
		if !w.owns(i) && w.hi.Load() == 0 {
			w.claim(i)
		}
		if w.owns(i) {
			return w.cursor(c.id, stripe.Of(i)).addSlow(counter, delta)
		}
		ok, busy := w.addShared(wordIn(c.ptr, uintptr(counter)*wordBytes), counter, c.id, delta)
		if busy {
			w.claim(i)
		}
		return ok
	}
	p := wordIn(c.ptr, uintptr(counter)*wordBytes)
	if !c.owned() {
		ok, _ := w.addShared(p, counter, c.id, delta)
		return ok
	}
	tag := uint64(c.id) & tagMask
	before, ok := countBefore(p.Load(), tag)
	if !ok {
		return false
	}
	after := saturated(before, delta)
	stripe.Store(p, tag<<countBits|after)
	if counter == 0 && w.bound != nil {
		w.bound.announce(before, after)
	}
	return true
}

// addShared is Add on the shared stripe, by compare-and-swap. busy
// reports that a compare-and-swap failed (another writer got in between)
// or that the word's count crossed a multiple of sharedBusy.
func (w *Window) addShared(p *atomic.Uint64, counter int, id int64, delta uint64) (ok, busy bool) {
	if !w.sharedUsed.Load() {
		w.sharedUsed.Store(true) // before the write, so readers that see it see the flag
		if w.bound != nil {
			w.growSlack()
		}
	}
	before, ok, contended := add(p, id, delta)
	after := saturated(before, delta)
	if ok && counter == 0 && w.bound != nil {
		w.bound.announce(before, after)
	}
	return ok, contended || before^after >= sharedBusy
}

// ID is the window ID of the cursor's bucket (see Window.ID).
func (c Cursor) ID() int64 { return c.id }

// Count sums counter over the interval that ends in the cursor's bucket.
func (c Cursor) Count(counter int) int64 { return c.w.count(c.id, counter) }

// CountPair is Count for two counters in one pass.
func (c Cursor) CountPair(a, b int) (int64, int64) {
	w := c.w
	w.checkCounter(a)
	w.checkCounter(b)
	offA, offB := uintptr(a)*wordBytes, uintptr(b)*wordBytes
	var sa, sb int64
	w.eachStripe(func(first unsafe.Pointer) {
		for id := c.id - int64(w.buckets) + 1; id <= c.id; id++ {
			tag := uint64(id) & tagMask
			off := uintptr(w.slot(id)) * w.stripeBytes
			if v := wordIn(first, off+offA).Load(); v>>countBits == tag {
				sa += int64(v & countMask)
			}
			if v := wordIn(first, off+offB).Load(); v>>countBits == tag {
				sb += int64(v & countMask)
			}
		}
	})
	return sa, sb
}

// CountWithBorrowed is Count plus what was borrowed into the interval (see
// BorrowedIn), in one pass over the time arithmetic.
func (c Cursor) CountWithBorrowed(counter int) int64 {
	n := c.w.count(c.id, counter)
	if c.w.everBorrowed.Load() {
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
	// A flat loop per stripe over the buckets of the interval: this is on
	// the path of every flow check near its limit.
	w.checkCounter(counter)
	offC := uintptr(counter) * wordBytes
	var sum int64
	if w.sharedUsed.Load() {
		sum = w.stripeCount(w.shared, cur, offC)
	}
	for i, hi := 0, int(w.hi.Load()); i < hi && i < maxOwned; i++ {
		if s := w.stripeOf(i); s != nil {
			sum += w.stripeCount(s, cur, offC)
		}
	}
	return sum
}

// stripeCount sums the word at offC of each bucket of the interval ending in
// window cur, in the stripe starting at first.
func (w *Window) stripeCount(first unsafe.Pointer, cur int64, offC uintptr) int64 {
	var sum int64
	for id := cur - int64(w.buckets) + 1; id <= cur; id++ {
		if v := wordIn(first, uintptr(w.slot(id))*w.stripeBytes+offC).Load(); v>>countBits == uint64(id)&tagMask {
			sum += int64(v & countMask)
		}
	}
	return sum
}

// bucketCount sums counter over the stripes of window id's bucket.
func (w *Window) bucketCount(id int64, counter int) int64 {
	w.checkCounter(counter)
	offC := uintptr(counter) * wordBytes
	var sum int64
	w.eachStripe(func(first unsafe.Pointer) {
		sum += countIn(wordIn(first, uintptr(w.slot(id))*w.stripeBytes+offC), id)
	})
	return sum
}

// CountWithBorrowed is Count plus BorrowedIn at nowMs.
func (w *Window) CountWithBorrowed(nowMs int64, counter int) int64 {
	cur := w.windowID(nowMs)
	n := w.count(cur, counter)
	if w.everBorrowed.Load() {
		n += w.borrowedIn(cur)
	}
	return n
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
	if w.lookahead == 0 || target <= cur || target > cur+int64(w.lookahead) {
		return false
	}
	if !w.everBorrowed.Load() {
		w.everBorrowed.Store(true)
	}
	_, ok, _ := add(w.borrowWord(target), target, uint64(delta))
	return ok
}

// Waiting is the total borrowed into windows still ahead of nowMs: capacity
// already promised to callers that are waiting for their window.
func (w *Window) Waiting(nowMs int64) int64 {
	if !w.everBorrowed.Load() {
		return 0
	}
	cur := w.windowID(nowMs)
	var sum int64
	for id := cur + 1; id <= cur+int64(w.lookahead); id++ {
		sum += countIn(w.borrowWord(id), id)
	}
	return sum
}

// BorrowedIn is the total borrowed into the buckets of the interval that
// ends in the bucket containing nowMs: capacity those buckets gave to
// callers that waited for them.
func (w *Window) BorrowedIn(nowMs int64) int64 {
	if !w.everBorrowed.Load() {
		return 0
	}
	return w.borrowedIn(w.windowID(nowMs))
}

func (w *Window) borrowedIn(cur int64) int64 {
	var sum int64
	for id := cur - int64(w.buckets) + 1; id <= cur; id++ {
		sum += countIn(w.borrowWord(id), id)
	}
	return sum
}

// BorrowedAt is what was borrowed into the single bucket containing atMs.
func (w *Window) BorrowedAt(atMs int64) int64 {
	if !w.everBorrowed.Load() {
		return 0
	}
	id := w.windowID(atMs)
	return countIn(w.borrowWord(id), id)
}

// Reset clears every bucket. Writes racing with Reset may survive it (a
// pinned writer may store back a count it loaded before the reset); the
// runtime only resets a breaker's window when the breaker closes, where a
// stray count from that instant is harmless.
func (w *Window) Reset() {
	w.eachStripe(func(first unsafe.Pointer) {
		for off := uintptr(0); off < uintptr(w.bucketMask+1)*w.stripeBytes; off += wordBytes {
			wordIn(first, off).Store(0)
		}
	})
	for i := 0; w.borrowed != nil && uint64(i) <= w.borrowMask; i++ {
		wordIn(unsafe.Pointer(w.borrowed), uintptr(i)*wordBytes).Store(0)
	}
	if w.bound != nil {
		// Counts fell: cached sums are no longer lower bounds (FitsPinned
		// refuses calls on them), so void them.
		w.bound.version.Add(1)
	}
}
