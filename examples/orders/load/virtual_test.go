package load

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestVirtualTimelineRunsByTimeThenScheduleOrder(t *testing.T) {
	var log []string
	var clockSet []time.Duration
	v := newVirtualTimeline(10*time.Second, func(d time.Duration) { clockSet = append(clockSet, d) })
	ctx := context.Background()
	note := func(name string) { log = append(log, fmt.Sprintf("%s@%v", name, v.Now())) }
	v.run(func() {
		v.Go(func() { v.Sleep(ctx, 2*time.Second); note("a") })
		v.Go(func() { v.Sleep(ctx, time.Second); note("b") })
		v.Go(func() { note("c") })
		v.Go(func() { v.Sleep(ctx, time.Second); note("d") }) // same wake-up as b, scheduled later
		note("main")
	})
	want := []string{"main@10s", "c@10s", "b@11s", "d@11s", "a@12s"}
	if !slices.Equal(log, want) {
		t.Errorf("ran %v, want %v", log, want)
	}
	if want := []time.Duration{10 * time.Second, 11 * time.Second, 12 * time.Second}; !slices.Equal(clockSet, want) {
		t.Errorf("clock set to %v, want %v", clockSet, want)
	}
}

func TestTallyWaitsForLaunchedCalls(t *testing.T) {
	now := 5 * time.Second
	var emitted []int
	tl := newTally(5*time.Second, 2, "CLOSED", func(s Second) { emitted = append(emitted, s.At) })
	for sec := range 2 {
		tl.sample(sec, tl.seconds[sec].Runtime, now)
	}
	tl.launch()
	tl.tick(7 * time.Second) // both seconds are over, but a call is still to enter
	if len(emitted) != 0 {
		t.Fatalf("emitted %v while a launched call had not entered", emitted)
	}
	// It enters late, after the end of the run: it counts in the last
	// second still open, not past the end.
	sec := tl.enter(func() time.Duration { return 8 * time.Second })
	if sec != 1 {
		t.Errorf("late call went to second %d, want 1", sec)
	}
	if !slices.Equal(emitted, []int{0}) {
		t.Errorf("emitted %v, want second 0 only while second 1 has a call pending", emitted)
	}
	tl.answer(sec, outcomePassed, 8*time.Second)
	if !slices.Equal(emitted, []int{0, 1}) {
		t.Errorf("emitted %v, want both seconds", emitted)
	}
	if r := tl.report(8 * time.Second); r.Total.Passed != 1 || r.Total.Offered != 1 {
		t.Errorf("totals %+v, want one offered and passed call", r.Total)
	}
}
