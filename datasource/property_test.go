package datasource_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

func flowSet(counts ...float64) rules.Set {
	var s rules.Set
	for _, c := range counts {
		s.Flow = append(s.Flow, sentinel.FlowRule{Resource: "prop.a", Grade: sentinel.FlowGradeQPS, Count: c})
	}
	return s
}

func TestPropertyUpdateAndListen(t *testing.T) {
	p := datasource.NewProperty()
	var heard []string
	listener := func(tag string) func(rules.Set) {
		return func(s rules.Set) { heard = append(heard, fmt.Sprintf("%s:%d", tag, len(s.Flow))) }
	}
	unregisterA := p.Listen(listener("a"))
	if len(heard) != 0 {
		t.Fatalf("a listener of an empty property was called: %v", heard)
	}

	if !p.Update(rules.Set{}) {
		t.Error("the first Update, even of an empty set, must count as a change")
	}
	if p.Update(rules.Set{}) {
		t.Error("Update with an equal set reported a change")
	}
	if !p.Update(flowSet(1)) {
		t.Error("Update with a new set reported no change")
	}
	withPositions := flowSet(1)
	withPositions.FlowAt = []rules.Position{{File: "x.toml", Line: 3}}
	if p.Update(withPositions) {
		t.Error("a set differing only in positions counted as a change")
	}

	unregisterB := p.Listen(listener("b")) // called at once with the value
	p.Update(flowSet(1, 2))
	unregisterA()
	unregisterA()
	p.Update(flowSet(3))
	unregisterB()
	p.Update(flowSet(4))

	want := "[a:0 a:1 b:1 a:2 b:2 b:1]"
	if got := fmt.Sprint(heard); got != want {
		t.Errorf("listeners heard %s, want %s", got, want)
	}
	if got := p.Get(); !got.Equal(flowSet(4)) {
		t.Errorf("Get = %+v, want the last update", got)
	}
}

// TestPropertyListenersSeeEveryValueInOrder updates from several goroutines;
// each listener must see the values in one order, the same for all, with no
// value twice in a row.
func TestPropertyListenersSeeEveryValueInOrder(t *testing.T) {
	p := datasource.NewProperty()
	var a, b []float64
	p.Listen(func(s rules.Set) { a = append(a, s.Flow[0].Count) })
	p.Listen(func(s rules.Set) {
		if got := p.Get(); !got.Equal(s) {
			t.Errorf("Get inside a listener = %v, want the value being announced %v", got, s)
		}
		b = append(b, s.Flow[0].Count)
	})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				p.Update(flowSet(float64(g*1000 + i%3)))
			}
		})
	}
	wg.Wait()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("the two listeners saw different sequences")
	}
	for i := 1; i < len(a); i++ {
		if a[i] == a[i-1] {
			t.Fatalf("value %v announced twice in a row", a[i])
		}
	}
	// Values differ across goroutines and between consecutive updates of
	// one, so every update is a change.
	if len(a) != 400 {
		t.Errorf("%d changes announced, want all 400", len(a))
	}
}
