package sysreadings

import "testing"

// A pinned reading stays what the test set, whatever the sampler stores,
// and unpinning lets samples in again from unknown.
func TestPinHoldsAgainstSamples(t *testing.T) {
	t.Cleanup(Unpin)
	Sampled(3, 0.5)
	if Load() != 3 || CPU() != 0.5 {
		t.Fatalf("sampled 3, 0.5: read %v, %v", Load(), CPU())
	}
	Pin(7.5, 0.25)
	Sampled(1, 0.9)
	if Load() != 7.5 || CPU() != 0.25 || !Pinned() {
		t.Fatalf("pinned 7.5, 0.25 then sampled 1, 0.9: read %v, %v (pinned %v)", Load(), CPU(), Pinned())
	}
	Pin(-1, 1)
	if Load() != -1 || CPU() != 1 {
		t.Fatalf("pinned again to -1, 1: read %v, %v", Load(), CPU())
	}
	Unpin()
	if Load() != -1 || CPU() != -1 || Pinned() {
		t.Fatalf("after Unpin: %v, %v (pinned %v), want unknown", Load(), CPU(), Pinned())
	}
	Sampled(2, 0.1)
	if Load() != 2 || CPU() != 0.1 {
		t.Fatalf("sampled after Unpin: read %v, %v", Load(), CPU())
	}
}

// Samples taken concurrently with Pin never win over it once Pin returned.
func TestPinRacesWithSamples(t *testing.T) {
	t.Cleanup(Unpin)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 1000 {
			Sampled(1, 1)
		}
	}()
	Pin(4, 0.4)
	<-done
	if Load() != 4 || CPU() != 0.4 {
		t.Fatalf("read %v, %v after Pin(4, 0.4) raced with samples", Load(), CPU())
	}
}
