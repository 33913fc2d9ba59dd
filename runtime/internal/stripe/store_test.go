package stripe

import (
	"sync/atomic"
	"testing"
)

// A reader never sees a stored word half written: on 32-bit platforms a
// plain 64-bit store is two stores, and a word going 0 -> 2^64-1 (a gauge
// stripe crossing 0 and -1) would read as 2^32-1 or 2^64-2^32 in between.
func TestStoreDoesNotTear(t *testing.T) {
	var w atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := uint64(0); ; v = ^v {
			select {
			case <-stop:
				return
			default:
			}
			for range 1000 {
				Store(&w, v)
				v = ^v
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for i := range 20_000_000 {
		if v := w.Load(); v != 0 && v != ^uint64(0) {
			t.Fatalf("read %#x after %d reads: a torn store", v, i)
		}
	}
}

func TestSharedOwnsNoStripe(t *testing.T) {
	if Shared.Index() != -1 || (P{}) != Shared {
		t.Fatalf("zero P has index %d, want -1 (Shared)", P{}.Index())
	}
	p := Pin()
	i := p.Index()
	Unpin()
	if Linked && (i < 0 || Of(i) != p) {
		t.Fatalf("pinned to index %d", i)
	}
	if !Linked && p != Shared {
		t.Fatalf("Pin without the linkname returned %d, want Shared", i)
	}
	if n := Count(); Linked != (n > 0) || n&(n-1) != 0 || n > maxStripes {
		t.Fatalf("Count() = %d with Linked %v", n, Linked)
	}
}
