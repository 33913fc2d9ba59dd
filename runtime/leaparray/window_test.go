package leaparray

import (
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

func TestCountSumsBucketsInsideInterval(t *testing.T) {
	w := MustNew(Config{IntervalMs: 1000, Buckets: 4, Counters: 2})
	w.Add(0, 0, 1)   // bucket [0,250)
	w.Add(260, 0, 2) // [250,500)
	w.Add(510, 0, 3) // [500,750)
	w.Add(999, 0, 4) // [750,1000)
	w.Add(999, 1, 7) // another counter of the same bucket
	if got := w.Count(999, 0); got != 10 {
		t.Fatalf("Count at 999 = %d, want 10", got)
	}
	if got := w.Count(999, 1); got != 7 {
		t.Fatalf("counter 1 = %d, want 7", got)
	}
	// At 1000 the first bucket has left the interval, even though nothing has
	// overwritten it yet.
	if got := w.Count(1000, 0); got != 9 {
		t.Fatalf("Count at 1000 = %d, want 9", got)
	}
	if got := w.Count(1749, 0); got != 4 {
		t.Fatalf("Count at 1749 = %d, want 4", got)
	}
	if got := w.Count(2000, 0); got != 0 {
		t.Fatalf("Count at 2000 = %d, want 0", got)
	}
}

func TestBucketReuseResetsOldCounts(t *testing.T) {
	w := second(1)
	w.Add(100, 0, 5)
	w.Add(1100, 0, 1) // same slot, next lap: the 5 must not survive
	if got := w.Count(1100, 0); got != 1 {
		t.Fatalf("Count after reuse = %d, want 1", got)
	}
	if got := w.BucketCount(1100, 0); got != 1 {
		t.Fatalf("BucketCount after reuse = %d, want 1", got)
	}
}

func TestStaleWriteIsDropped(t *testing.T) {
	w := second(1)
	w.Add(1100, 0, 1)
	if w.Add(100, 0, 5) {
		t.Fatal("write a full lap in the past was accepted")
	}
	if got := w.Count(1100, 0); got != 1 {
		t.Fatalf("Count = %d, want 1 (stale write leaked in)", got)
	}
}

func TestPreviousBucket(t *testing.T) {
	w := MustNew(Config{IntervalMs: 2000, Buckets: 2, Counters: 1})
	w.Add(500, 0, 3)
	w.Add(1500, 0, 4)
	if got := w.Previous(1500, 0); got != 3 {
		t.Fatalf("Previous = %d, want 3", got)
	}
	if got := w.Previous(2500, 0); got != 4 {
		t.Fatalf("Previous one second later = %d, want 4", got)
	}
	if got := w.Previous(3500, 0); got != 0 {
		t.Fatalf("Previous after a quiet second = %d, want 0", got)
	}
}

func TestNegativeTimesMapToDistinctWindows(t *testing.T) {
	w := second(1)
	w.Add(-1, 0, 1) // window [-500,0)
	w.Add(0, 0, 2)  // window [0,500)
	if got := w.BucketCount(-1, 0); got != 1 {
		t.Fatalf("bucket before zero = %d, want 1", got)
	}
	if got := w.Count(0, 0); got != 3 {
		t.Fatalf("Count at 0 = %d, want 3", got)
	}
	if got := w.WindowStart(-1); got != -500 {
		t.Fatalf("WindowStart(-1) = %d, want -500", got)
	}
}

func TestBorrowing(t *testing.T) {
	w := second(1) // 2 x 500 ms, lookahead 1
	if w.Borrow(100, 1200, 1) {
		t.Fatal("borrowed two windows ahead with lookahead 1")
	}
	if w.Borrow(100, 300, 1) {
		t.Fatal("borrowed into the current window")
	}
	if !w.Borrow(100, 600, 2) {
		t.Fatal("could not borrow from the next window")
	}
	if got := w.Waiting(100); got != 2 {
		t.Fatalf("Waiting = %d, want 2", got)
	}
	if got := w.BorrowedIn(100); got != 0 {
		t.Fatalf("BorrowedIn before the window starts = %d, want 0", got)
	}
	if got := w.Waiting(600); got != 0 {
		t.Fatalf("Waiting once the window started = %d, want 0", got)
	}
	if got := w.BorrowedIn(600); got != 2 {
		t.Fatalf("BorrowedIn = %d, want 2", got)
	}
	if got := w.BorrowedIn(1400); got != 2 {
		t.Fatalf("BorrowedIn while still inside the interval = %d, want 2", got)
	}
	if got := w.BorrowedIn(1500); got != 0 {
		t.Fatalf("BorrowedIn after the interval = %d, want 0", got)
	}
	if got := w.Count(600, 0); got != 0 {
		t.Fatalf("Count includes borrowed: %d", got)
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []Config{
		{IntervalMs: 0, Buckets: 1, Counters: 1},
		{IntervalMs: 1000, Buckets: 0, Counters: 1},
		{IntervalMs: 1000, Buckets: 3, Counters: 1},
		{IntervalMs: 1000, Buckets: 2, Counters: 0},
		{IntervalMs: 1000, Buckets: 2, Counters: 65},
		{IntervalMs: 1000, Buckets: 2, Counters: 1, Lookahead: -1},
	}
	for _, c := range bad {
		if _, err := New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
	w, err := New(Config{IntervalMs: 900, Buckets: 3, Counters: 9})
	if err != nil {
		t.Fatal(err)
	}
	if w.WidthMs() != 300 || w.Buckets() != 3 || w.IntervalMs() != 900 {
		t.Fatalf("geometry %d/%d/%d", w.WidthMs(), w.Buckets(), w.IntervalMs())
	}
	// A non-power-of-two ring still maps every window to its own slot.
	for i := int64(0); i < 6; i++ {
		w.Add(i*300, 8, i+1)
	}
	if got := w.Count(1500, 8); got != 4+5+6 {
		t.Fatalf("Count on a 3-bucket ring = %d, want 15", got)
	}
}

func TestGauge(t *testing.T) {
	g := NewGauge()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				if i%2 == 0 {
					g.Add(1)
					g.Add(-1)
					g.Add(1)
					continue
				}
				p := stripe.Pin()
				g.AddPinned(1, p)
				g.AddPinned(-1, p)
				g.AddPinned(1, p)
				stripe.Unpin()
			}
		}()
	}
	wg.Wait()
	if got := g.Load(); got != 6000 {
		t.Fatalf("Gauge = %d, want 6000", got)
	}
}

func TestCursorCountsAndCounterBounds(t *testing.T) {
	w := MustNew(Config{IntervalMs: 1000, Buckets: 2, Counters: 3})
	p := stripe.Pin()
	c := w.AtPinned(700, p)
	c.Add(0, 2)
	c.Add(2, 5)
	c.On(w, 700, p).Add(0, 1)
	other := MustNew(Config{IntervalMs: 3000, Buckets: 4, Counters: 1}) // 750 ms buckets
	c.On(other, 700, p).Add(0, 1)
	w.AtPinned(2300, p).On(other, 2300, p).Add(0, 1) // 500 ms bucket starts at 2000, 750 ms bucket at 2250
	stripe.Unpin()
	if a, b := c.CountPair(0, 2); a != 3 || b != 5 {
		t.Fatalf("CountPair = %d, %d, want 3, 5", a, b)
	}
	if got := w.CountWithBorrowedAt(w.ID(900), 0); got != 3 {
		t.Fatalf("CountWithBorrowedAt = %d, want 3", got)
	}
	if got := other.BucketCount(0, 0); got != 1 {
		t.Fatalf("On a window of another width: bucket [0,750) holds %d, want 1", got)
	}
	if got := other.BucketCount(2250, 0); got != 1 {
		t.Fatalf("On a window of another width: bucket [2250,3000) holds %d, want 1 (time 2300)", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("writing counter 3 of a 3-counter window did not panic")
		}
	}()
	c.Add(3, 1)
}

// TestConcurrentResetLosesNothing aims concurrent writers at the moment a
// bucket is reused. Each trial fills a slot with an old window, then lets
// writers, spinning so that they run at the same instant, write the new
// window of that slot: the first to arrive resets the bucket while the others
// increment it. Some writers also write the old window, as callers
// descheduled between reading the clock and writing would. No write of the
// new window may be refused and the new window must count every one of them:
// a reset racing with an increment it should keep shows up as a shortfall.
// (A bucket that publishes its new start and then zeroes its counters, as
// separate steps, fails here.)
func TestConcurrentResetLosesNothing(t *testing.T) {
	t.Run("compare-and-swap", func(t *testing.T) {
		testConcurrentReset(t, func(w *Window, nowMs int64) bool { return w.Add(nowMs, 0, 1) })
	})
	t.Run("pinned", func(t *testing.T) {
		testConcurrentReset(t, func(w *Window, nowMs int64) bool {
			p := stripe.Pin()
			ok := w.AtPinned(nowMs, p).Add(0, 1)
			stripe.Unpin()
			return ok
		})
	})
}

func testConcurrentReset(t *testing.T, add func(w *Window, nowMs int64) bool) {
	// More writers than processors, so pinned writers also share stripes
	// (one at a time per processor).
	writers := 2 * max(2, runtime.GOMAXPROCS(0))
	const perWriter = 50
	trials := 1000
	if testing.Short() {
		trials = 100
	}
	for trial := range trials {
		w := second(1)
		w.Add(100, 0, 1000) // the old window of slot 0
		var ready, start atomic.Int32
		var refused atomic.Int64
		var wg sync.WaitGroup
		for g := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ready.Add(1)
				for start.Load() == 0 {
					runtime.Gosched() // leave a processor to the goroutine that starts the trial
				}
				for i := range perWriter {
					if g == 0 && i%4 == 0 {
						add(w, 100) // stale: may land before the reset or be dropped
					}
					if !add(w, 1100) { // the new window of slot 0
						refused.Add(1)
					}
				}
			}()
		}
		for ready.Load() != int32(writers) {
			runtime.Gosched()
		}
		start.Store(1)
		wg.Wait()
		if n := refused.Load(); n != 0 {
			t.Fatalf("trial %d: %d writes of the current window refused", trial, n)
		}
		if got, want := w.BucketCount(1100, 0), int64(writers*perWriter); got != want {
			t.Fatalf("trial %d: new window counted %d, want %d", trial, got, want)
		}
	}
}

// TestMoreProcessorsThanStripes: a window made with one processor, written
// after GOMAXPROCS grew past the CPU count, by pinned writers on processors without a stripe of
// their own and by unpinned writers, must still count exactly: those writes
// share a stripe that only compare-and-swap writes.
func TestMoreProcessorsThanStripes(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	w := second(1)
	g := NewGauge()
	// Stripes cover the CPUs too (see stripeCount): go well beyond them.
	runtime.GOMAXPROCS(max(4, 2*runtime.NumCPU()))
	defer runtime.GOMAXPROCS(prev)
	const writers, each = 8, 2000
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if i%2 == 0 {
					w.Add(100, 0, 1)
					g.Add(1)
					continue
				}
				p := stripe.Pin()
				w.AtPinned(100, p).Add(0, 1)
				g.AddPinned(1, p)
				stripe.Unpin()
			}
		}()
	}
	wg.Wait()
	if got := w.Count(100, 0); got != writers*each {
		t.Fatalf("window counted %d, want %d", got, writers*each)
	}
	if got := g.Load(); got != writers*each {
		t.Fatalf("gauge holds %d, want %d", got, writers*each)
	}
}

// A counter that reaches the word's capacity stays there, on the pinned,
// the shared and the borrowed paths: it never carries into the tag, which
// would hand the word to another window and lose the count.
func TestCountsSaturate(t *testing.T) {
	w := second(3)
	p := stripe.Pin()
	c := w.AtPinned(100, p)
	c.Add(1, MaxDelta-1)
	c.Add(1, 5)
	c.Add(0, MaxDelta)
	c.Add(0, 1)
	stripe.Unpin()
	w.Add(100, 2, 1<<62)
	w.Add(100, 2, 1)
	for counter := range 3 {
		if got := w.Count(100, counter); got != MaxDelta {
			t.Fatalf("counter %d = %d, want it saturated at %d", counter, got, MaxDelta)
		}
	}
	w.Borrow(100, 600, MaxDelta)
	w.Borrow(100, 600, MaxDelta)
	if got := w.Waiting(100); got != MaxDelta {
		t.Fatalf("borrowed %d, want %d", got, MaxDelta)
	}
}

// A gauge whose stripe crosses 0 and -1 never reads anything else: on
// 32-bit platforms a plain 64-bit store is two stores, and a read between
// them saw 4294967295 calls in flight.
func TestGaugeCrossingZeroDoesNotTear(t *testing.T) {
	g := NewGauge()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			p := stripe.Pin()
			for range 1000 {
				g.AddPinned(-1, p)
				g.AddPinned(1, p)
			}
			stripe.Unpin()
		}
	}()
	defer func() { close(stop); <-done }()
	reads := 5_000_000
	if raceEnabled {
		reads = 500_000
	}
	for i := range reads {
		if v := g.Load(); v != 0 && v != -1 {
			t.Fatalf("gauge read %d after %d reads, want 0 or -1", v, i)
		}
	}
}

// The bucket count is kept in 32 bits: larger counts are refused, not
// truncated.
func TestNewRefusesTooManyBuckets(t *testing.T) {
	if _, err := New(Config{IntervalMs: 1 << 25, Buckets: 1 << 25, Counters: 1}); err == nil {
		t.Fatal("2^25 buckets accepted")
	}
}
