package redis

import (
	"sync"
	"testing"
	"time"
)

func TestLeaseTakeGivesBackWhatItCannotServe(t *testing.T) {
	l := newLease(grant{tokens: 5, window: 1, remaining: 10}, time.Hour)
	defer l.timer.Stop()
	if left, ok := l.take(3); !ok || left != 2 {
		t.Fatalf("take(3) = %d, %v; want 2, true", left, ok)
	}
	if _, ok := l.take(3); ok {
		t.Fatal("take(3) with 2 left succeeded")
	}
	if got := l.tokens.Load(); got != 2 {
		t.Errorf("tokens after a refused take: %d, want 2 (given back)", got)
	}
	if l.spent(3) {
		t.Error("spent with 10 left in Redis")
	}
	l.remaining.Store(2)
	if !l.spent(3) || l.spent(2) {
		t.Error("spent should hold for acquire 3 and not for 2 with 2 left in Redis")
	}
}

func TestLeaseExpiresAtItsWindowEnd(t *testing.T) {
	l := newLease(grant{tokens: 1000, window: 1}, 20*time.Millisecond)
	if _, ok := l.take(1); !ok {
		t.Fatal("fresh lease refused a token")
	}
	deadline := time.Now().Add(2 * time.Second)
	for !l.expired() {
		if time.Now().After(deadline) {
			t.Fatal("lease never expired")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, ok := l.take(1); ok {
		t.Error("expired lease handed out a token")
	}
	if l.spent(1) {
		t.Error("an expired lease must not block: its window is over")
	}
	if l := newLease(grant{tokens: 5}, 0); !l.expired() {
		t.Error("a lease whose window is already over must start expired")
	}
}

// Concurrent takers never hand out more tokens than the lease holds.
func TestLeaseNeverOverGrantsUnderContention(t *testing.T) {
	l := newLease(grant{tokens: 1000, window: 1}, time.Hour)
	defer l.timer.Stop()
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for range 8 {
		wg.Go(func() {
			n := 0
			for range 500 {
				if _, ok := l.take(1); ok {
					n++
				}
			}
			mu.Lock()
			taken += n
			mu.Unlock()
		})
	}
	wg.Wait()
	if taken != 1000 {
		t.Errorf("%d tokens taken from a lease of 1000 by 4000 tries", taken)
	}
}

func TestInstallAddsToTheSameWindowAndReplacesAnOlderOne(t *testing.T) {
	f := newFlowState("ns", 9)
	if got := f.keys; got[0] != "ns:{9}:window" || got[1] != "ns:{9}:live" {
		t.Errorf("keys %v", got)
	}
	now := time.Now()
	f.install(grant{tokens: 4, window: 1, toEndMs: 60_000, remaining: 50}, now)
	first := f.lease.Load()
	f.install(grant{tokens: 6, window: 1, toEndMs: 59_000, remaining: 44}, now)
	if f.lease.Load() != first || first.tokens.Load() != 10 || first.remaining.Load() != 44 {
		t.Errorf("same window: lease replaced or tokens %d remaining %d, want 10, 44", first.tokens.Load(), first.remaining.Load())
	}
	f.install(grant{tokens: 3, window: 2, toEndMs: 60_000, remaining: 90}, now)
	second := f.lease.Load()
	if second == first || second.tokens.Load() != 3 || !first.expired() {
		t.Errorf("next window: want a new lease of 3 and the old one expired")
	}
	second.timer.Stop()
}

// A timer's function runs when the scheduler gets to it: on a loaded host,
// milliseconds after it is due. A lease whose window has ended must not
// answer "budget spent" in that gap (the timer is stopped here to stand for
// one that runs late).
func TestLeaseIsNotSpentPastItsWindowEndWhenItsTimerIsLate(t *testing.T) {
	l := newLease(grant{tokens: 0, window: 1, remaining: 0}, 30*time.Millisecond)
	l.timer.Stop()
	if !l.spent(1) {
		t.Fatal("an empty lease with nothing left in Redis is not spent inside its window")
	}
	time.Sleep(40 * time.Millisecond)
	if l.spent(1) {
		t.Error("lease still spent after its window ended")
	}
	if !l.expired() {
		t.Error("lease not expired after its window ended")
	}
}
