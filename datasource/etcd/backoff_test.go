package etcd

import (
	"testing"
	"time"
)

func TestBackoffGrowsToItsCapWithJitterAndResets(t *testing.T) {
	b := backoff{min: 100 * time.Millisecond, max: 5 * time.Second}
	steps := []time.Duration{100, 200, 400, 800, 1600, 3200, 5000, 5000}
	for round := range 2 {
		for i, step := range steps {
			step *= time.Millisecond
			if d := b.next(); d < step/2 || d > step {
				t.Fatalf("round %d, retry %d: wait %v, want within [%v, %v]", round, i, d, step/2, step)
			}
		}
		b.reset()
	}
}

func TestBackoffJitterSpreadsWaits(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 50 {
		b := backoff{min: time.Second, max: time.Second}
		seen[b.next()] = true
	}
	if len(seen) < 10 {
		t.Errorf("50 first waits took only %d distinct values; instances would retry in step", len(seen))
	}
}
