package bench

import (
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkPass measures one admitted call: flow check, breaker check, the
// empty business call, and the exit bookkeeping.
func BenchmarkPass(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			p.pass.loop(b, passed)
		})
	}
}

// BenchmarkBlock measures one call refused by the flow check.
func BenchmarkBlock(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			p.block.loop(b, blockedByFlow)
		})
	}
}

// BenchmarkPassParallel is BenchmarkPass with GOMAXPROCS goroutines sharing
// one resource; ns/op is wall time per call, so perfect scaling divides the
// single-goroutine figure by the number of cores.
func BenchmarkPassParallel(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			p.pass.loopParallel(b, passed)
		})
	}
}

// BenchmarkBlockParallel is BenchmarkBlock with GOMAXPROCS goroutines.
func BenchmarkBlockParallel(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			p.block.loopParallel(b, blockedByFlow)
		})
	}
}

// floorSink keeps clock reads observable so the compiler cannot drop them.
var floorSink atomic.Int64

// BenchmarkFloor measures the primitives a guarded call cannot avoid, as a
// lower bound to read the other figures against: one atomic counter add and
// the two ways of reading time (wall plus monotonic, and monotonic only).
func BenchmarkFloor(b *testing.B) {
	b.Run("atomic-add", func(b *testing.B) {
		var counter atomic.Int64
		for b.Loop() {
			counter.Add(1)
		}
		floorSink.Store(counter.Load())
	})
	b.Run("time-now", func(b *testing.B) {
		var last time.Time
		for b.Loop() {
			last = time.Now()
		}
		floorSink.Store(last.UnixNano())
	})
	b.Run("monotonic", func(b *testing.B) {
		// time.Since on a time that carries a monotonic reading subtracts
		// monotonic clocks only, without reading the wall clock.
		start := time.Now()
		var elapsed time.Duration
		for b.Loop() {
			elapsed = time.Since(start)
		}
		floorSink.Store(int64(elapsed))
	})
}

// BenchmarkFloorParallel is the contended counterpart of atomic-add: every
// goroutine adds to one shared counter, the cost any shared statistic pays.
func BenchmarkFloorParallel(b *testing.B) {
	b.Run("atomic-add", func(b *testing.B) {
		var counter atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				counter.Add(1)
			}
		})
		floorSink.Store(counter.Load())
	})
}
