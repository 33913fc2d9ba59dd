package leaparray

import (
	"math"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Every width's window ID is floor division, whichever path computes it
// (the constant division for 500 ms, the float estimate, the integer
// division for huge or negative times), at bucket edges and far from zero.
func TestWindowIDIsFloorDivision(t *testing.T) {
	times := []int64{math.MinInt64 / 2, -1001, -500, -499, -1, 0, 1, 249, 250, 499, 500, 501, 999, 1000,
		1<<52 - 1, 1 << 52, 1<<52 + 499, math.MaxInt64 / 2, math.MaxInt64}
	for _, width := range []int64{1, 250, 500, 1000, 3000} {
		w := MustNew(Config{IntervalMs: 2 * width, Buckets: 2, Counters: 1})
		for _, ms := range times {
			want := ms / width
			if ms%width != 0 && ms < 0 {
				want--
			}
			if got := w.ID(ms); got != want {
				t.Errorf("width %d: ID(%d) = %d, want %d", width, ms, got, want)
			}
		}
	}
}

// TryAdd takes only the owned stripe's same-window words and, on a Bounded
// window, stops at each multiple of boundStep so that Add announces the
// crossing: the cached bound then never overstates what fits.
func TestTryAddLeavesCrossingsToAdd(t *testing.T) {
	w := second(1)
	p := stripe.Of(0)
	if !stripe.Linked {
		t.Skip("no owned stripes without pinning")
	}
	c := w.AtID(5, p)
	if c.TryAdd(0, 1) {
		t.Fatal("TryAdd wrote a word still tagged for no window")
	}
	if !c.Add(0, 1) {
		t.Fatal("Add refused a fresh word")
	}
	// Stripes are claimed lazily: that first Add claimed processor 0's, so
	// a cursor made now writes it (c still names the shared stripe).
	c = w.AtID(5, p)
	for i := int64(2); i < boundStep; i++ {
		if !c.TryAdd(0, 1) {
			t.Fatalf("TryAdd refused count %d, below boundStep", i)
		}
	}
	version := w.bound.version.Load()
	if c.TryAdd(0, 1) {
		t.Fatal("TryAdd took the add that reaches boundStep")
	}
	c.Add(0, 1)
	if w.bound.version.Load() == version {
		t.Fatal("the crossing was not announced")
	}
	if got := w.CountWithBorrowedAt(5, 0); got != boundStep {
		t.Fatalf("count %d, want %d", got, boundStep)
	}
	if w.At(5*w.WidthMs()).TryAdd(0, 1) {
		t.Fatal("TryAdd wrote the shared stripe")
	}
}
