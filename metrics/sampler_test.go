package metrics

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// epochMs is the wall time the manual clock's zero stands for in these tests.
const epochMs = 1_764_590_000_000

// start is where the manual clock starts: a whole second.
const start = 1000 * time.Second

type rig struct {
	t     *testing.T
	clock *runtime.ManualClock
	res   *runtime.Resource
	s     *Sampler
}

func newRig(t *testing.T, name string, opts ...runtime.ResourceOption) *rig {
	t.Helper()
	c := runtime.NewManualClock(start)
	runtime.SetClock(c)
	res := runtime.NewResource(t.Name()+"/"+name, opts...)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	s := New(Config{
		WallMs:    func() int64 { return epochMs + c.Now().Milliseconds() },
		Resources: func() []*runtime.Resource { return []*runtime.Resource{res} },
	})
	return &rig{t: t, clock: c, res: res, s: s}
}

// call runs one call of rt that fails when fail is set; it reports whether
// it was admitted.
func (r *rig) call(rt time.Duration, fail bool) bool {
	e, blocked := r.res.Entry(context.Background())
	if blocked != nil {
		return false
	}
	r.clock.Advance(rt)
	if fail {
		e.TraceError(errors.New("boom"))
	}
	e.Exit()
	return true
}

// at moves the manual clock to start+d.
func (r *rig) at(d time.Duration) { r.clock.Set(start + d) }

func wallSecond(k int) int64 { return epochMs + start.Milliseconds() + int64(k)*1000 }

func TestSamplerFilesCompletedSeconds(t *testing.T) {
	r := newRig(t, "orders", runtime.WithResourceType(runtime.ResourceTypeRPC))
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: r.res.Name(), Grade: runtime.FlowGradeQPS, Count: 3}}); err != nil {
		t.Fatal(err)
	}
	r.s.Poll() // starts at second 0
	// Second 0: two calls in the first half (10 ms and 30 ms, one failing),
	// two in the second half (the second blocked: limit 3).
	r.at(100 * time.Millisecond)
	r.call(10*time.Millisecond, false)
	r.call(30*time.Millisecond, true)
	r.at(600 * time.Millisecond)
	r.s.Poll() // reads the first half
	if !r.call(20*time.Millisecond, false) || r.call(0, false) {
		t.Fatal("want the third call admitted and the fourth blocked")
	}
	// A call still in flight at the end of the second.
	inflight, blocked := r.res.Entry(context.Background())
	if blocked == nil {
		t.Fatal("a fifth call was admitted over the limit")
	}
	_ = inflight
	r.at(1000*time.Millisecond + grace*time.Millisecond - time.Millisecond)
	r.s.Poll()
	if got := r.s.Seconds(r.res.Name(), 0, 1<<62); len(got) != 0 {
		t.Fatalf("second 0 filed before its grace ended: %+v", got)
	}
	r.at(1100 * time.Millisecond)
	r.s.Poll()
	got := r.s.Seconds(r.res.Name(), 0, 1<<62)
	want := Second{Time: wallSecond(0), Pass: 3, Block: 2, Success: 3, Exception: 1, RTSumMs: 60}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("seconds = %+v, want [%+v]", got, want)
	}
	if got[0].AvgRTMs() != 20 {
		t.Errorf("AvgRTMs = %d, want 20", got[0].AvgRTMs())
	}
	if r.s.Latest() != wallSecond(0) {
		t.Errorf("Latest = %d, want %d", r.s.Latest(), wallSecond(0))
	}
	st := r.s.Stats()
	if len(st) != 1 || st[0].Type != runtime.ResourceTypeRPC || st[0].Last != want || st[0].Totals.Pass != 3 || st[0].Totals.Block != 2 {
		t.Errorf("stats = %+v", st)
	}
}

func TestSamplerConcurrencyAtSecondEnd(t *testing.T) {
	r := newRig(t, "slow")
	r.s.Poll()
	r.at(200 * time.Millisecond)
	e1, _ := r.res.Entry(context.Background())
	e2, _ := r.res.Entry(context.Background())
	r.at(1100 * time.Millisecond)
	r.s.Poll()
	e1.Exit()
	e2.Exit()
	got := r.s.Seconds(r.res.Name(), wallSecond(0), wallSecond(0))
	if len(got) != 1 || got[0].Concurrency != 2 || got[0].Pass != 2 || got[0].Success != 0 {
		t.Fatalf("second 0 = %+v, want 2 passes and 2 in flight", got)
	}
}

// A starved sampler reads a bucket after a later bucket reused its slot: the
// second is marked Partial and keeps only what could still be read.
func TestSamplerStarvedMarksPartial(t *testing.T) {
	r := newRig(t, "starved")
	r.s.Poll()
	r.at(100 * time.Millisecond) // bucket 0 of second 0
	for range 5 {
		r.call(0, false)
	}
	r.at(700 * time.Millisecond) // bucket 1
	r.call(0, false)
	r.at(1200 * time.Millisecond) // bucket 2 reuses bucket 0's slot
	r.call(0, false)
	r.at(1600 * time.Millisecond)
	r.s.Poll()
	got := r.s.Seconds(r.res.Name(), wallSecond(0), wallSecond(0))
	if len(got) != 1 || !got[0].Partial || got[0].Pass != 1 {
		t.Fatalf("second 0 = %+v, want Partial with the 1 pass still readable", got)
	}
	r.at(2100 * time.Millisecond)
	r.s.Poll()
	got = r.s.Seconds(r.res.Name(), wallSecond(1), wallSecond(1))
	if len(got) != 1 || got[0].Partial || got[0].Pass != 1 {
		t.Fatalf("second 1 = %+v, want complete with 1 pass", got)
	}
	if tot := r.s.Stats()[0].Totals; tot.PartialSeconds != 1 || tot.Pass != 2 {
		t.Errorf("totals = %+v, want 1 partial second and the 2 passes read", tot)
	}
}

// A late read of quiet buckets is exact: nobody wrote, nothing was lost.
func TestSamplerLateQuietIsComplete(t *testing.T) {
	r := newRig(t, "quiet")
	r.s.Poll()
	r.at(300 * time.Millisecond)
	r.call(5*time.Millisecond, false)
	r.at(5*time.Second + 100*time.Millisecond)
	r.s.Poll()
	got := r.s.Seconds(r.res.Name(), 0, 1<<62)
	if len(got) != 5 {
		t.Fatalf("got %d seconds, want 5", len(got))
	}
	for i, s := range got {
		if s.Partial || s.Time != wallSecond(i) {
			t.Errorf("second %d = %+v", i, s)
		}
	}
	if got[0].Pass != 1 || got[0].RTSumMs != 5 {
		t.Errorf("second 0 = %+v", got[0])
	}
}

func TestSamplerKeepsAMinute(t *testing.T) {
	r := newRig(t, "minute")
	r.s.Poll()
	for k := range 130 {
		r.at(time.Duration(k)*time.Second + 100*time.Millisecond)
		for range k % 7 {
			r.call(time.Millisecond, false)
		}
		r.at(time.Duration(k)*time.Second + 600*time.Millisecond)
		r.s.Poll()
	}
	r.at(130*time.Second + 100*time.Millisecond)
	r.s.Poll()
	all := r.s.Seconds(r.res.Name(), 0, 1<<62)
	if len(all) != DefaultKeep {
		t.Fatalf("kept %d seconds, want %d", len(all), DefaultKeep)
	}
	if all[0].Time != wallSecond(10) || all[len(all)-1].Time != wallSecond(129) {
		t.Errorf("kept seconds %d..%d", all[0].Time, all[len(all)-1].Time)
	}
	var wantMinute, wantTotal int64
	for k := range 130 {
		wantTotal += int64(k % 7)
		if k >= 70 {
			wantMinute += int64(k % 7)
		}
	}
	st := r.s.Stats()[0]
	if st.Minute.Pass != wantMinute || st.Minute.Success != wantMinute || st.Totals.Pass != wantTotal {
		t.Errorf("minute pass %d (want %d), total %d (want %d)", st.Minute.Pass, wantMinute, st.Totals.Pass, wantTotal)
	}
	if st.Last.Time != wallSecond(129) || st.Last.Pass != 129%7 {
		t.Errorf("last = %+v", st.Last)
	}
	lines := r.s.Lines(wallSecond(100), wallSecond(106))
	if len(lines) != 7 || lines[0].Time != wallSecond(100) || lines[6].Time != wallSecond(106) {
		t.Errorf("lines 100..106 = %+v", lines)
	}
}

// With the system clock the runtime's seconds are the wall clock's: a
// sampler running for real files whole seconds.
func TestSamplerRealClockWallSeconds(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for two wall-clock seconds")
	}
	res := runtime.NewResource(t.Name())
	s := New(Config{Resources: func() []*runtime.Resource { return []*runtime.Resource{res} }})
	s.Start()
	defer s.Stop()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if e, b := res.Entry(context.Background()); b == nil {
			e.Exit()
		}
		time.Sleep(5 * time.Millisecond)
	}
	got := s.Seconds(res.Name(), 0, 1<<62)
	if len(got) < 2 {
		t.Fatalf("got %d seconds in 3 s", len(got))
	}
	for _, sec := range got {
		if sec.Time%1000 != 0 || sec.Partial {
			t.Errorf("second %+v: not a whole wall-clock second, or partial", sec)
		}
	}
	if last := got[len(got)-1].Time; time.Now().UnixMilli()-last > 2500 {
		t.Errorf("latest second %d is stale", last)
	}
}
