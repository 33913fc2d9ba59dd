package runtime

import (
	"context"
	"testing"
	"time"
)

func TestReadStatBucket(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	id := (testStart.Milliseconds() + 100) / StatBucketMs
	clock.Advance(100 * time.Millisecond)
	e, _ := r.Entry(context.Background())
	clock.Advance(7 * time.Millisecond)
	e.TraceError(context.Canceled)
	e.Exit()
	if b, ok := r.ReadStatBucket(id); !ok || b != (BucketStats{Pass: 1, Success: 1, Error: 1, RTSumMs: 7}) {
		t.Fatalf("bucket = %+v %v", b, ok)
	}
	if StatNowMs() != clock.Now().Milliseconds() {
		t.Errorf("StatNowMs = %d, want the manual clock's %d", StatNowMs(), clock.Now().Milliseconds())
	}
	if r.Concurrency() != 0 {
		t.Errorf("concurrency %d", r.Concurrency())
	}
}
