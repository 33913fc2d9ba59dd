package exposition

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// rig is a resource under a manual clock, sampled by a Sampler polled by hand.
type rig struct {
	clock *runtime.ManualClock
	res   *runtime.Resource
	s     *metrics.Sampler
}

const start = 1000 * time.Second

func newRig(t *testing.T, name string) *rig {
	t.Helper()
	c := runtime.NewManualClock(start)
	runtime.SetClock(c)
	res := runtime.NewResource(name)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	s := metrics.New(metrics.Config{
		WallMs:    func() int64 { return 1_764_590_000_000 + c.Now().Milliseconds() },
		Resources: func() []*runtime.Resource { return []*runtime.Resource{res} },
	})
	s.Poll()
	return &rig{clock: c, res: res, s: s}
}

// calls makes n calls lasting rt each, failing when fail is set; it returns
// how many were admitted.
func (r *rig) calls(n int, rt time.Duration, fail bool) int {
	admitted := 0
	for range n {
		e, be := r.res.Entry(context.Background())
		if be != nil {
			continue
		}
		admitted++
		r.clock.Advance(rt)
		if fail {
			e.TraceError(errors.New("boom"))
		}
		e.Exit()
	}
	return admitted
}

// endSecond moves to 100 ms into the next second and polls, so the
// sampler files the second in progress.
func (r *rig) endSecond() {
	now := r.clock.Now()
	r.clock.Set(now.Truncate(time.Second) + time.Second + 100*time.Millisecond)
	r.s.Poll()
	r.clock.Advance(500 * time.Millisecond)
	r.s.Poll()
}

// value returns the sample of family name with the given labels, failing
// the test when there is none.
func value(t *testing.T, fams []Family, name string, labels ...string) float64 {
	t.Helper()
	for _, f := range fams {
		if f.Name != name {
			continue
		}
		for _, s := range f.Samples {
			if fmt.Sprint(s.Labels) == fmt.Sprint(labels) {
				return s.Value
			}
		}
		t.Fatalf("%s has no series %v; it has %v", name, labels, f.Samples)
	}
	t.Fatalf("no family %s", name)
	return 0
}

func TestFamiliesReadTheWorkload(t *testing.T) {
	r := newRig(t, t.Name()+"/orders")
	name := r.res.Name()
	flow := runtime.FlowRule{Resource: name, Grade: runtime.FlowGradeQPS, Count: 2}
	degrade := runtime.DegradeRule{Resource: name, Grade: runtime.DegradeErrorCount, Count: 2, MinRequestAmount: 1, TimeWindowSec: 30, StatIntervalMs: 60_000}
	slow := runtime.DegradeRule{Resource: name, Grade: runtime.DegradeSlowRatio, Count: 250, SlowRatioThreshold: 0.5, TimeWindowSec: 30}
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{flow}, Degrade: []runtime.DegradeRule{degrade, slow}}); err != nil {
		t.Fatal(err)
	}
	x := New(r.s)
	// Second 0: 5 calls of 10 ms, 2 admitted (one failing), 3 blocked by flow.
	if got := r.calls(1, 10*time.Millisecond, true) + r.calls(4, 10*time.Millisecond, false); got != 2 {
		t.Fatalf("admitted %d, want 2", got)
	}
	r.endSecond()
	f := x.Families()
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{Requests, []string{name, "pass", ""}, 2},
		{Requests, []string{name, "block", "flow"}, 3},
		{Errors, []string{name}, 1},
		{Completed, []string{name}, 2},
		{ResponseTime, []string{name}, 0.02},
		{Concurrency, []string{name}, 0},
		{FlowThreshold, []string{name, "0", "qps"}, 2},
		{DegradeThreshold, []string{name, "0", "error_count"}, 2},
		{DegradeThreshold, []string{name, "1", "slow_ratio"}, 0.5},
		{DegradeSlowRT, []string{name, "1"}, 0.25},
		{PartialSeconds, []string{name}, 0},
	} {
		if got := value(t, f, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// A reload that rebuilds the resource's checks (its slow-call breaker
	// removed) but keeps its flow rule counts no block twice.
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{flow}, Degrade: []runtime.DegradeRule{degrade}}); err != nil {
		t.Fatal(err)
	}
	f = x.Families()
	if got := value(t, f, Requests, name, "block", "flow"); got != 3 {
		t.Errorf("flow blocks after a reload %v, want 3", got)
	}
	errs := r.res.BlockErrors(nil)
	breaker := errs[1].Rule()
	if got := value(t, f, BreakerState, name, breaker, "closed"); got != 1 {
		t.Errorf("closed = %v, want 1", got)
	}
	if got := value(t, f, BreakerState, name, breaker, "open"); got != 0 {
		t.Errorf("open = %v, want 0", got)
	}
	if got := value(t, f, RuleBlocked, name, "flow", errs[0].Rule()); got != 3 {
		t.Errorf("flow rule blocked %v, want 3", got)
	}

	// Second 1: two more failures open the error-count breaker (3 > 2);
	// then 4 calls are refused by it.
	r.calls(2, 5*time.Millisecond, true)
	r.endSecond()
	if got := r.calls(4, 0, false); got != 0 {
		t.Fatalf("admitted %d with the breaker open", got)
	}
	// A fifth call, refused too.
	if _, be := r.res.Entry(context.Background()); be == nil {
		t.Fatal("want the breaker to block")
	}
	f = x.Families()
	if got := value(t, f, BreakerState, name, breaker, "open"); got != 1 {
		t.Errorf("open = %v, want 1", got)
	}
	if got := value(t, f, BreakerState, name, breaker, "closed"); got != 0 {
		t.Errorf("closed = %v, want 0", got)
	}
	if got := value(t, f, Requests, name, "block", "degrade"); got != 5 {
		t.Errorf("degrade blocks %v, want 5", got)
	}
	if got := value(t, f, Requests, name, "pass", ""); got != 4 {
		t.Errorf("passes %v, want 4", got)
	}
	if got := value(t, f, Errors, name); got != 3 {
		t.Errorf("errors %v, want 3", got)
	}

	// Removing the breakers keeps the degrade count: a counter never drops.
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{flow}}); err != nil {
		t.Fatal(err)
	}
	f = x.Families()
	if got := value(t, f, Requests, name, "block", "degrade"); got != 5 {
		t.Errorf("degrade blocks after the rule's removal %v, want 5", got)
	}
	for _, fam := range f {
		if fam.Name == BreakerState && len(fam.Samples) != 0 {
			t.Errorf("breaker series without breakers: %v", fam.Samples)
		}
	}
}

// TestConcurrencyIsLive checks that the gauge reads the calls in flight now.
func TestConcurrencyIsLive(t *testing.T) {
	r := newRig(t, t.Name()+"/r")
	x := New(r.s)
	e1, _ := r.res.Entry(context.Background())
	e2, _ := r.res.Entry(context.Background())
	if got := value(t, x.Families(), Concurrency, r.res.Name()); got != 2 {
		t.Errorf("concurrency %v, want 2", got)
	}
	e1.Exit()
	e2.Exit()
	if got := value(t, x.Families(), Concurrency, r.res.Name()); got != 0 {
		t.Errorf("concurrency %v, want 0", got)
	}
}

func TestWriteTextEscapesAndSkipsEmptyFamilies(t *testing.T) {
	var b strings.Builder
	err := WriteText(&b, []Family{
		{Name: "sentinel_x_total", Help: "a \\ b\nc", Kind: Counter, Labels: []string{"resource", "rule"},
			Samples: []Sample{{Labels: []string{`a"b`, "x\\y\nz"}, Value: 1.5}}},
		{Name: "sentinel_empty", Help: "none", Kind: Gauge, Labels: []string{"resource"}},
		{Name: "sentinel_g", Help: "g", Kind: Gauge, Samples: []Sample{{Value: 3}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `# HELP sentinel_x_total a \\ b\nc
# TYPE sentinel_x_total counter
sentinel_x_total{resource="a\"b",rule="x\\y\nz"} 1.5
# HELP sentinel_g g
# TYPE sentinel_g gauge
sentinel_g 3
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestServeHTTP(t *testing.T) {
	r := newRig(t, t.Name()+"/r")
	r.calls(3, time.Millisecond, false)
	r.endSecond()
	rec := httptest.NewRecorder()
	New(r.s).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if ct := rec.Header().Get("Content-Type"); ct != ContentType {
		t.Errorf("Content-Type %q", ct)
	}
	line := fmt.Sprintf("%s{resource=%q,result=\"pass\",block_type=\"\"} 3\n", Requests, r.res.Name())
	if !strings.Contains(rec.Body.String(), line) {
		t.Errorf("body lacks %q:\n%s", line, rec.Body.String())
	}
}

// The command center's refused pushes are written when a source is given:
// the count and the time of the last, in seconds.
func TestPushRefusals(t *testing.T) {
	r := newRig(t, t.Name()+"/r")
	if fams := New(r.s).Families(); len(familyOf(fams, RefusedPushes).Samples) != 0 {
		t.Errorf("refusals written without a source: %+v", familyOf(fams, RefusedPushes))
	}
	at := time.UnixMilli(1_764_590_000_500)
	x := New(r.s).WithPushRefusals(func() (int64, time.Time) { return 4, at })
	fams := x.Families()
	if got := value(t, fams, RefusedPushes); got != 4 {
		t.Errorf("%s = %v, want 4", RefusedPushes, got)
	}
	if got := value(t, fams, LastRefusedPush); got != 1_764_590_000.5 {
		t.Errorf("%s = %v", LastRefusedPush, got)
	}
	var b strings.Builder
	if err := WriteText(&b, fams); err != nil || !strings.Contains(b.String(), "\n"+RefusedPushes+" 4\n") {
		t.Errorf("text %v:\n%s", err, b.String())
	}
}

// familyOf is the family called name.
func familyOf(fams []Family, name string) Family {
	for _, f := range fams {
		if f.Name == name {
			return f
		}
	}
	return Family{}
}
