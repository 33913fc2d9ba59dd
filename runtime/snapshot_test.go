package runtime

import (
	"context"
	"testing"
	"time"
)

func TestSnapshot(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "snap"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 4})
	call(r, clock, 10*time.Millisecond, nil)
	call(r, clock, 30*time.Millisecond, errBusiness)
	call(r, clock, 20*time.Millisecond, nil)
	open, _ := r.Entry(context.Background())
	call(r, clock, 0, nil) // blocked: four passed
	call(r, clock, 0, nil)
	s := r.Snapshot()
	want := Snapshot{Resource: r.Name(), Pass: 4, Block: 2, Success: 3, Error: 1, AvgRTMs: 20, Concurrency: 1}
	if s != want {
		t.Fatalf("snapshot %+v, want %+v", s, want)
	}
	open.Exit()
	clock.Advance(400 * time.Millisecond) // still inside the 1 s window
	if s := r.Snapshot(); s.Pass != 4 || s.Success != 4 || s.Concurrency != 0 {
		t.Fatalf("after the last exit: %+v", s)
	}
	clock.Advance(time.Second)
	if s := r.Snapshot(); s != (Snapshot{Resource: r.Name()}) {
		t.Fatalf("two seconds later: %+v", s)
	}
}

func TestTraceErrorAfterExitIgnored(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "late-error"))
	e, _ := r.Entry(context.Background())
	e.TraceError(nil)
	e.Exit()
	e.TraceError(errBusiness)
	var zero Entry
	zero.TraceError(errBusiness) // a blocked call's Entry: no effect, no panic
	zero.Exit()
	if s := r.Snapshot(); s.Error != 0 || s.Success != 1 {
		t.Fatalf("snapshot %+v, want 1 success and no error", s)
	}
	_ = clock
}
