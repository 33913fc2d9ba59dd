package retrybudget

import (
	"sync"
	"testing"
)

func TestRetriesStayWithinTheRatio(t *testing.T) {
	b := New(0.1)
	retried := 0
	for ms := int64(0); ms < 30_000; ms++ { // 1000 calls a second for 30 s, each failing once
		b.Call(ms)
		if b.TryRetry(ms) {
			retried++
		}
	}
	// 30 000 calls: a tenth may be retried, give or take the window's edges.
	if retried < 2700 || retried > 3100 {
		t.Fatalf("%d retries of 30000 calls at ratio 0.1", retried)
	}
}

func TestOneRetryPerWindowWhenCallsAreRare(t *testing.T) {
	b := New(0.1)
	b.Call(0)
	if !b.TryRetry(0) {
		t.Fatal("the first retry of a window was refused")
	}
	b.Call(100)
	if b.TryRetry(100) {
		t.Fatal("a second retry of two calls passed a ratio of 0.1")
	}
	// Ten seconds later the window holds none of it.
	b.Call(10_500)
	if !b.TryRetry(10_500) {
		t.Fatal("the window did not slide")
	}
}

func TestBurstAfterQuietPeriodIsBounded(t *testing.T) {
	b := New(0.2)
	for ms := int64(0); ms < 5000; ms += 10 { // 100 calls a second, no retries, for 5 s
		b.Call(ms)
	}
	allowed := 0
	for range 1000 {
		if b.TryRetry(5000) {
			allowed++
		}
	}
	if allowed != 100 {
		t.Fatalf("%d retries allowed after 500 calls at ratio 0.2, want 100", allowed)
	}
}

func TestConcurrentUse(t *testing.T) {
	b := New(0.5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	retried := 0
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for i := range 2000 {
				ms := int64(i) // every goroutine in the same two seconds
				b.Call(ms)
				if g%2 == 0 && b.TryRetry(ms) {
					n++
				}
			}
			mu.Lock()
			retried += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	// At most half of all the calls, give or take the goroutines racing for
	// the last room; at least half of the retrying goroutines' own calls,
	// which are in the window whenever they retry.
	if retried > 4000+4 || retried < 2000-4 {
		t.Fatalf("%d retries of 8000 calls at ratio 0.5", retried)
	}
}
