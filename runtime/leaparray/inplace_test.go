package leaparray

import (
	"sync/atomic"
	"testing"
	"unsafe"
)

// second and secondWithGauge build the second-level windows the tests
// use: NewSecond's (and Window.NewGauge's) unless TestBuiltInPlace reruns
// the tests on windows from NewSecondIn.
var (
	second          = NewSecond
	secondWithGauge = func(counters int) (*Window, *Gauge) {
		w := NewSecond(counters)
		return w, w.NewGauge()
	}
)

// inPlace is secondWithGauge through NewSecondIn, in one object as the
// runtime allocates a resource's window and gauge.
func inPlace(counters int) (*Window, *Gauge) {
	mem := new(struct {
		w Window
		g Gauge
	})
	NewSecondIn(&mem.w, &mem.g, counters)
	return &mem.w, &mem.g
}

// The window tests pass on windows built in place, with their words
// aligned by the allocator and by alignedWords' padding fallback.
func TestBuiltInPlace(t *testing.T) {
	tests := []struct {
		name string
		fn   func(*testing.T)
	}{
		{"FitsPinnedAgreesWithFullSum", TestFitsPinnedAgreesWithFullSum},
		{"CounterZeroAnnouncesEveryBoundStep", TestCounterZeroAnnouncesEveryBoundStep},
		{"FitsPinnedTrustsCacheUntilAnnounced", TestFitsPinnedTrustsCacheUntilAnnounced},
		{"FitsPinnedConcurrentLimit", TestFitsPinnedConcurrentLimit},
		{"FitsPinnedSlackCoversWorstCase", TestFitsPinnedSlackCoversWorstCase},
		{"ReadBucketExactOrMarked", TestReadBucketExactOrMarked},
		{"BorrowedAtID", TestBorrowedAtID},
		{"StripesAreClaimedWhereWritten", TestStripesAreClaimedWhereWritten},
		{"HighProcessorsShare", TestHighProcessorsShare},
		{"TryAddLeavesCrossingsToAdd", TestTryAddLeavesCrossingsToAdd},
		{"BucketReuseResetsOldCounts", TestBucketReuseResetsOldCounts},
		{"StaleWriteIsDropped", TestStaleWriteIsDropped},
		{"NegativeTimesMapToDistinctWindows", TestNegativeTimesMapToDistinctWindows},
		{"Borrowing", TestBorrowing},
		{"ConcurrentResetLosesNothing", TestConcurrentResetLosesNothing},
		{"MoreProcessorsThanStripes", TestMoreProcessorsThanStripes},
		{"CountsSaturate", TestCountsSaturate},
		{"Geometry", testInPlaceGeometry},
	}
	saved, savedWithGauge := second, secondWithGauge
	defer func() { second, secondWithGauge, padAlways = saved, savedWithGauge, false }()
	secondWithGauge = inPlace
	second = func(counters int) *Window { w, _ := inPlace(counters); return w }
	for _, pad := range []bool{false, true} {
		padAlways = pad
		name := "allocator-aligned"
		if pad {
			name = "padded"
		}
		t.Run(name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, tc.fn)
			}
		})
	}
}

// testInPlaceGeometry checks NewSecondIn's window against NewSecond's, field
// by field and word offset by word offset, its gauge's link, and that
// every stripe starts a cache line of its own.
func testInPlaceGeometry(t *testing.T) {
	for counters := 1; counters <= 64; counters++ {
		w, g := inPlace(counters)
		ref := NewSecond(counters)
		if w.IntervalMs() != ref.IntervalMs() || w.widthMs != ref.widthMs || w.invWidth != ref.invWidth ||
			w.buckets != ref.buckets || w.bucketMask != ref.bucketMask || w.counters != ref.counters ||
			w.lookahead != ref.lookahead || w.stripeBytes != ref.stripeBytes || w.borrowMask != ref.borrowMask ||
			w.xorLimit != ref.xorLimit {
			t.Fatalf("counters %d: window geometry differs from NewSecond's", counters)
		}
		if off, want := offsetFrom(w.shared, unsafe.Pointer(w.bound)), offsetFrom(ref.shared, unsafe.Pointer(ref.bound)); off != want {
			t.Fatalf("counters %d: bound at %d, NewSecond's at %d", counters, off, want)
		}
		if off, want := offsetFrom(w.shared, unsafe.Pointer(w.borrowed)), offsetFrom(ref.shared, unsafe.Pointer(ref.borrowed)); off != want {
			t.Fatalf("counters %d: borrowed ring at %d, NewSecond's at %d", counters, off, want)
		}
		for i := range maxOwned {
			if w.procs.Load(i) != nil || g.procs.Load(i) != nil {
				t.Fatalf("counters %d: processor %d's slot holds a stripe of its own in a new window or gauge", counters, i)
			}
		}
		if w.gauge.Load() != g {
			t.Fatalf("counters %d: the gauge is not linked to its window", counters)
		}
		if !onLine((*atomic.Uint64)(w.shared)) || !onLine(g.shared) {
			t.Fatalf("counters %d: shared stripe %p or gauge line %p not on a cache-line boundary", counters, w.shared, g.shared)
		}
		// The gauge's line comes after every word of the window.
		end := offsetFrom(w.shared, unsafe.Pointer(w.bound)) + wordsPerLine*wordBytes
		end = max(end, uintptr(w.bucketMask+1)*w.stripeBytes)
		if w.borrowed != nil {
			end = max(end, offsetFrom(w.shared, unsafe.Pointer(w.borrowed))+uintptr(w.borrowMask+1)*wordBytes)
		}
		if off := offsetFrom(w.shared, unsafe.Pointer(g.shared)); off < end {
			t.Fatalf("counters %d: gauge line at byte %d overlaps the window's words (up to %d)", counters, off, end)
		}
	}
}

// offsetFrom is p's byte offset from base, 0 for a nil p.
func offsetFrom(base, p unsafe.Pointer) uintptr {
	if p == nil {
		return 0
	}
	return uintptr(p) - uintptr(base)
}

// alignedWords returns zeroed, aligned buffers of the length asked for,
// from the allocator and from its padding fallback alike.
func TestAlignedWords(t *testing.T) {
	defer func() { padAlways = false }()
	for _, pad := range []bool{false, true} {
		padAlways = pad
		for n := 1; n <= 70; n++ {
			buf := alignedWords(n)
			if len(buf) != n || cap(buf) != n || !onLine(&buf[0]) {
				t.Fatalf("pad %v: alignedWords(%d) has len %d cap %d, aligned %v", pad, n, len(buf), cap(buf), onLine(&buf[0]))
			}
			for i := range buf {
				if buf[i].Load() != 0 {
					t.Fatalf("pad %v: alignedWords(%d)[%d] not zero", pad, n, i)
				}
			}
		}
	}
	// alignIn on buffers starting at every word of a line.
	raw := make([]atomic.Uint64, 3*wordsPerLine)
	for skip := range wordsPerLine {
		buf := alignIn(raw[skip:skip+wordsPerLine+wordsPerLine-1], wordsPerLine)
		if len(buf) != wordsPerLine || !onLine(&buf[0]) {
			t.Fatalf("alignIn from word %d: len %d, aligned %v", skip, len(buf), onLine(&buf[0]))
		}
	}
}

// NewSecondIn refuses what NewSecond refuses.
func TestNewSecondInPanicsOnBadCounters(t *testing.T) {
	for _, counters := range []int{0, 65} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewSecondIn with %d counters did not panic", counters)
				}
			}()
			var w Window
			var g Gauge
			NewSecondIn(&w, &g, counters)
		}()
	}
}
