package leaparray

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// TakePinned must answer and write exactly as FitsPinned followed by Add
// does. Two windows get the same writes from every stripe; on each step a
// reader takes on one with TakePinned and on the other with the two steps,
// for limits around the count and around the cache's margin, and every word
// of both windows (counts, caches, the bound) must stay equal. The windows
// are owned-stripe windows, a window still on its shared stripe, and one
// that has been borrowed into; the test counts the takes TakePinned could
// answer from its fast path, so that it fails if that path is never taken.
func TestTakePinnedMatchesItsTwoSteps(t *testing.T) {
	withProcs(t, 4)
	const stripes = 4
	cases := []struct {
		name    string
		build   func() *Window
		readers int
		borrow  bool // borrow into both windows halfway, once the caches are in use
	}{
		{"owned stripes", func() *Window { return claimAll(NewSecond(9), stripes) }, stripes, false},
		{"one owned stripe", func() *Window { return claimAll(NewSecond(9), 1) }, 1, false},
		{"shared stripe", func() *Window { w := NewSecond(9); w.sharedUsed.Store(true); return w }, stripes, false},
		{"borrowed into", func() *Window { return claimAll(NewSecond(9), stripes) }, stripes, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			taker, steps := tc.build(), tc.build()
			rng := rand.New(rand.NewPCG(3, 4))
			nowMs := int64(10_000)
			var fast, takes int
			for step := range 20_000 {
				if step%400 == 0 {
					nowMs += int64(rng.IntN(450)) // crosses buckets now and then
				}
				id := taker.ID(nowMs)
				if tc.borrow && step == 10_000 {
					for _, w := range []*Window{taker, steps} {
						if !w.Borrow(nowMs, nowMs+w.WidthMs(), 1000) { // more than the slack
							t.Fatal("the window refused the borrow")
						}
					}
				}
				if rng.IntN(3) == 0 {
					writer := stripe.Of(rng.IntN(stripes))
					n := int64(1 + rng.IntN(70)) // sometimes across a boundStep multiple
					taker.cursor(id, writer).Add(0, n)
					steps.cursor(id, writer).Add(0, n)
				}
				reader := stripe.Of(rng.IntN(tc.readers))
				sum, delta, slack := steps.CountWithBorrowedAt(id, 0), int64(1+rng.IntN(3)), steps.slack()
				limit := []int64{
					sum + delta - 1, sum + delta,
					sum + delta + slack - 1, sum + delta + slack,
					sum + delta + slack + int64(rng.IntN(200)), sum - int64(rng.IntN(50)),
				}[rng.IntN(6)]
				takes++
				if takeIsFast(taker, id, delta, limit, reader) {
					fast++
				}
				want := steps.FitsPinned(id, delta, limit, reader)
				if want {
					steps.cursor(id, reader).Add(0, delta)
				}
				if got := taker.TakePinned(id, delta, limit, reader); got != want {
					t.Fatalf("step %d: TakePinned(count %d + %d <= %d) = %v, want %v", step, sum, delta, limit, got, want)
				}
				if a, b := windowWords(taker), windowWords(steps); !slices.Equal(a, b) {
					t.Fatalf("step %d: the windows' words differ after the take:\n TakePinned %v\n two steps  %v", step, a, b)
				}
			}
			if tc.name == "owned stripes" && fast < takes/4 {
				t.Fatalf("only %d of %d takes could use the fast path", fast, takes)
			}
			t.Logf("%d of %d takes could use the fast path", fast, takes)
		})
	}
}

// takeIsFast reports whether TakePinned would answer from its own reads
// (a stripe of its own, a valid cache, a clear answer), without its two
// steps.
func takeIsFast(w *Window, id, delta, limit int64, p stripe.P) bool {
	if w.everBorrowed.Load() || !cacheValid(w, id, p) {
		return false
	}
	s := w.stripeOf(p.Index())
	old := wordIn(s, uintptr(w.slot(id))*w.stripeBytes).Load()
	own, current := int64(0), old>>countBits == uint64(id)&tagMask
	if current {
		own = int64(old & countMask)
	}
	low := int64(w.cacheWord(s, cacheOthers).Load()) + own + delta
	return low > limit || current && low+w.slack() <= limit && old^(old+uint64(delta)) < w.xorLimit
}

// windowWords is every word of w: the shared stripe and bound, then each
// owned stripe with its cache line.
func windowWords(w *Window) []uint64 {
	ring := int(w.bucketMask + 1)
	perStripe := ring * int(w.stripeBytes/wordBytes)
	var out []uint64
	appendWords := func(first unsafe.Pointer, n int) {
		for i := range n {
			out = append(out, wordIn(first, uintptr(i)*wordBytes).Load())
		}
	}
	appendWords(w.shared, perStripe+wordsPerLine)
	for i := range maxOwned {
		if w.owns(i) {
			appendWords(w.stripeOf(i), perStripe+wordsPerLine)
		}
	}
	return out
}
