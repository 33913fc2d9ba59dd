package floor

import (
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// count sums the count bits of word i of every stripe of both buckets in w
// (stride words a stripe), whatever window tag they hold.
func count(w []uint64Getter, i, stride int) int64 {
	var n int64
	for s := 0; s < len(w)/stride; s++ {
		n += int64(w[s*stride+i]() & countMask)
	}
	return n
}

// uint64Getter loads one word.
type uint64Getter func() uint64

// getters are the loads of the second-level window's words, or the
// breaker's.
func getters(g *Guard, second bool) []uint64Getter {
	words := g.br
	if second {
		words = g.second
	}
	out := make([]uint64Getter, len(words))
	for i := range words {
		out[i] = words[i].Load
	}
	return out
}

// The floor does the runtime's work: every admitted call counts a pass, a
// success and a breaker total, leaves nothing in flight, and a QPS limit
// refuses the calls beyond it.
func TestFloorCountsAndLimits(t *testing.T) {
	clock := runtime.NewManualClock(1000 * time.Second)
	runtime.SetClock(clock)
	defer runtime.SetClock(nil)
	g := New(100)
	passed := 0
	for range 150 {
		if g.Call() {
			passed++
		}
	}
	if passed != 100 {
		t.Fatalf("%d of 150 calls passed a limit of 100", passed)
	}
	if n := count(getters(g, true), evPass, secStride); n != 100 {
		t.Errorf("pass count %d, want 100", n)
	}
	if n := count(getters(g, true), evSuccess, secStride); n != 100 {
		t.Errorf("success count %d, want 100", n)
	}
	if n := count(getters(g, false), brTotal, brStride); n != 100 {
		t.Errorf("breaker total %d, want 100", n)
	}
	var inFlight uint64
	for i := 0; i < len(g.gauge); i += line {
		inFlight += g.gauge[i].Load()
	}
	if inFlight != 0 {
		t.Errorf("%d calls left in flight", int64(inFlight))
	}
	clock.Advance(time.Second)
	if !g.Call() {
		t.Error("a call a second later was refused")
	}
}
