package coarseclock

import (
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Each processor with a line of its own is due every AuditEvery-th
// recording, counted apart from the others.
func TestAuditsDuePerProcessor(t *testing.T) {
	a := newAudits(2)
	p0, p1 := stripe.Of(0), stripe.Of(1)
	for i := 1; i <= 9*AuditEvery; i++ {
		if got, want := a.Due(p0), i%AuditEvery == 0; got != want {
			t.Fatalf("processor 0, recording %d: due %v, want %v", i, got, want)
		}
		if i%3 == 0 { // processor 1 records a third as often
			if got, want := a.Due(p1), (i/3)%AuditEvery == 0; got != want {
				t.Fatalf("processor 1, recording %d: due %v, want %v", i/3, got, want)
			}
		}
	}
}

// Processors without a line (beyond the lines, or all of them in a build
// without pinning, which pins to stripe.Shared) share one count, taken with
// atomic adds: exactly one recording in AuditEvery is due, whichever
// goroutines make them.
func TestAuditsSharedFallback(t *testing.T) {
	a := newAudits(1)
	const goroutines, each = 4, 40 * AuditEvery
	var wg sync.WaitGroup
	var mu sync.Mutex
	due := 0
	for g := range goroutines {
		p := stripe.Shared
		if g%2 == 1 {
			p = stripe.Of(3)
		}
		wg.Go(func() {
			n := 0
			for range each {
				if a.Due(p) {
					n++
				}
			}
			mu.Lock()
			due += n
			mu.Unlock()
		})
	}
	wg.Wait()
	if want := goroutines * each / AuditEvery; due != want {
		t.Fatalf("%d recordings due on the shared count, want %d", due, want)
	}
	if a.words[0].Load() != 0 {
		t.Fatal("the shared recordings wrote processor 0's line")
	}
}

// DueAt is due on the same recordings as Due's count.
func TestDueAtMatchesDue(t *testing.T) {
	a := newAudits(1)
	for seq := uint64(1); seq <= 4*AuditEvery; seq++ {
		if a.Due(stripe.Of(0)) != DueAt(seq) {
			t.Fatalf("recording %d: Due and DueAt disagree", seq)
		}
	}
}

// An audit of a cache more than LateLimit ticks behind turns reads real,
// and moves the cache to the real time; a cache less behind stays in use.
func TestAuditTurnsStaleCacheReal(t *testing.T) {
	c, real := starvedClock(t)
	ms := int64(time.Millisecond)
	real.Store(10 * ms)
	if got := c.Nanotime(); got != 10*ms {
		t.Fatalf("first read %d, want the real %d", got, 10*ms)
	}
	real.Store((10 + LateLimit) * ms)
	c.Audit()
	if c.Lagging() {
		t.Fatalf("lagging after an audit of a cache %d ticks behind, want in use", LateLimit)
	}
	if now, ok := c.Cached(); !ok || now != (10+LateLimit)*ms {
		t.Fatalf("Cached = %d, %v after the audit, want the audited %d, true", now, ok, (10+LateLimit)*ms)
	}
	real.Store((11 + 2*LateLimit) * ms)
	c.Audit()
	if !c.Lagging() {
		t.Fatalf("not lagging after an audit of a cache %d ticks behind", LateLimit+1)
	}
	if _, ok := c.Cached(); ok {
		t.Fatal("Cached reports the cache in use while lagging")
	}
	real.Store(100 * ms)
	if got := c.Nanotime(); got != 100*ms {
		t.Fatalf("lagging read %d, want the real %d", got, 100*ms)
	}
}

// Off is never in use: its Cached reports false, before and after reads
// of other clocks.
func TestOffNeverInUse(t *testing.T) {
	if _, ok := Off.Cached(); ok {
		t.Fatal("Off.Cached reports a cache in use")
	}
	if Off.Lagging() {
		t.Fatal("Off is lagging")
	}
}
