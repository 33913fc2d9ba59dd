package leaparray

import "testing"

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
