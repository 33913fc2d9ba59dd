package leaparray

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

func BenchmarkAdd(b *testing.B) {
	w := NewSecond(5)
	now := int64(0)
	for b.Loop() {
		now++
		w.Add(now>>10, 0, 1)
	}
}

func BenchmarkCount(b *testing.B) {
	w := NewSecond(5)
	w.Add(0, 0, 1)
	var sink int64
	for b.Loop() {
		sink += w.Count(700, 0)
	}
	_ = sink
}

func BenchmarkAddParallel(b *testing.B) {
	w := NewSecond(5)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w.Add(100, 0, 1)
		}
	})
}

// The flow check of every call, with every processor writing the counter it
// reads: a full sum per call (CountAddParallel) against FitsPinned's cached
// bound (FitsPinnedAddParallel).
func BenchmarkCountAddParallel(b *testing.B) {
	w := NewSecond(1)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := stripe.Pin()
			if w.Count(100, 0) < 1<<40 {
				w.AtPinned(100, p).Add(0, 1)
			}
			stripe.Unpin()
		}
	})
}

func BenchmarkFitsPinnedAddParallel(b *testing.B) {
	w := NewSecond(1)
	id := w.ID(100)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := stripe.Pin()
			if w.FitsPinned(id, 1, 1<<40, p) {
				w.AtID(id, p).Add(0, 1)
			}
			stripe.Unpin()
		}
	})
}
