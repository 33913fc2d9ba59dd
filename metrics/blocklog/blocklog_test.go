package blocklog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// wall is the wall-clock time the tests tick at: a whole second.
var wall = time.Date(2026, 12, 1, 11, 0, 5, 0, time.UTC)

// syncBuffer is a bytes.Buffer safe for the logger's goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// records decodes the JSON lines written so far and empties the buffer.
func (s *syncBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, m)
	}
	s.b.Reset()
	return out
}

func newLogger(maxLines int) (*Logger, *syncBuffer) {
	buf := &syncBuffer{}
	h := slog.NewJSONHandler(buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // the handler's own time varies; "second" is the record's
			}
			return a
		},
	})
	return New(Config{Logger: slog.New(h), MaxLines: maxLines}), buf
}

// setup installs a manual clock, declares resources named after the test and
// loads, for each, a QPS 1 flow rule and an error-count breaker.
func setup(t *testing.T, n int) (*runtime.ManualClock, []*runtime.Resource) {
	t.Helper()
	clock := runtime.NewManualClock(1000 * time.Second)
	runtime.SetClock(clock)
	var res []*runtime.Resource
	var rules runtime.Rules
	for i := range n {
		name := fmt.Sprintf("%s/r%d", t.Name(), i)
		res = append(res, runtime.NewResource(name))
		rules.Flow = append(rules.Flow, runtime.FlowRule{Resource: name, Grade: runtime.FlowGradeQPS, Count: 1})
		rules.Degrade = append(rules.Degrade, runtime.DegradeRule{Resource: name, Grade: runtime.DegradeErrorCount, Count: 1, MinRequestAmount: 1, TimeWindowSec: 60, StatIntervalMs: 10000})
	}
	if err := runtime.LoadRules(rules); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	return clock, res
}

// calls makes n calls of r, failing the admitted ones when fail is set, and
// returns how many were blocked.
func calls(r *runtime.Resource, n int, fail bool) int {
	blocked := 0
	for range n {
		e, be := r.Entry(context.Background())
		if be != nil {
			blocked++
			continue
		}
		if fail {
			e.TraceError(errors.New("boom"))
		}
		e.Exit()
	}
	return blocked
}

func TestTickWritesOneRecordPerResourceByTypeAndRule(t *testing.T) {
	clock, res := setup(t, 2)
	// Blocks before New are its baseline, not logged.
	calls(res[0], 3, false)
	l, buf := newLogger(0)

	// r0: a second of 6 calls, 1 passes, 5 blocked by the flow rule.
	clock.Advance(time.Second)
	if got := calls(res[0], 6, false); got != 5 {
		t.Fatalf("r0 blocked %d, want 5", got)
	}
	// r1: the first call fails and opens the breaker (error count > 1 needs
	// two errors), then flow blocks.
	calls(res[1], 1, true)
	clock.Advance(time.Second)
	calls(res[1], 1, true)
	clock.Advance(time.Second)
	if got := calls(res[1], 4, false); got != 4 {
		t.Fatalf("r1 blocked %d, want 4 (breaker open)", got)
	}
	if recs := buf.records(t); len(recs) != 0 {
		t.Fatalf("records before Tick: %v", recs)
	}

	l.Tick(wall)
	recs := buf.records(t)
	if len(recs) != 2 {
		t.Fatalf("got %d records, want 2: %v", len(recs), recs)
	}
	// Busiest first: r0 (5) then r1 (4).
	want := []struct {
		resource string
		blocked  float64
		types    map[string]any
	}{
		{res[0].Name(), 5, map[string]any{"flow": 5.0}},
		{res[1].Name(), 4, map[string]any{"degrade": 4.0}},
	}
	for i, w := range want {
		r := recs[i]
		if r["msg"] != MsgBlocked || r["level"] != "INFO" || r["second"] != "2026-12-01 11:00:04" ||
			r["resource"] != w.resource || r["blocked"] != w.blocked {
			t.Errorf("record %d = %v, want resource %s blocked %v in second 11:00:04", i, r, w.resource, w.blocked)
		}
		if fmt.Sprint(r["types"]) != fmt.Sprint(w.types) {
			t.Errorf("record %d types = %v, want %v", i, r["types"], w.types)
		}
		rules, _ := r["rules"].(map[string]any)
		var sum float64
		for text, n := range rules {
			if !strings.Contains(text, " rule #") {
				t.Errorf("record %d: rule key %q is not a rule's description", i, text)
			}
			sum += n.(float64)
		}
		if len(rules) != 1 || sum != w.blocked {
			t.Errorf("record %d rules = %v, want one rule with %v", i, rules, w.blocked)
		}
	}

	// A second without blocks writes nothing, even across a reload that
	// rebuilds r0's checks (a breaker added) and keeps its flow rule; a new
	// block is counted once.
	extra := runtime.DegradeRule{Resource: res[0].Name(), Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 5}
	if err := runtime.LoadRules(runtime.Rules{Flow: runtime.FlowRules(), Degrade: append(runtime.DegradeRules(), extra)}); err != nil {
		t.Fatal(err)
	}
	l.Tick(wall.Add(time.Second))
	if recs := buf.records(t); len(recs) != 0 {
		t.Fatalf("a quiet second wrote %v", recs)
	}
	calls(res[1], 2, false)
	l.Tick(wall.Add(2 * time.Second))
	if recs := buf.records(t); len(recs) != 1 || recs[0]["blocked"] != 2.0 || recs[0]["seconds"] != nil {
		t.Fatalf("got %v, want one record of 2 blocks", recs)
	}
	// A late tick says how many seconds its counts span.
	calls(res[1], 1, false)
	l.Tick(wall.Add(5 * time.Second))
	if recs := buf.records(t); len(recs) != 1 || recs[0]["seconds"] != 3.0 {
		t.Fatalf("got %v, want one record spanning 3 seconds", recs)
	}
}

// TestTickCapsRecordsPerSecond checks the rate limit: a flood of blocks over
// many resources writes MaxLines records, the busiest resources, and one
// record summing up the rest.
func TestTickCapsRecordsPerSecond(t *testing.T) {
	_, res := setup(t, 5)
	l, buf := newLogger(2)
	for i, r := range res {
		calls(r, 1000+i, false) // r4 blocks most
	}
	l.Tick(wall)
	recs := buf.records(t)
	if len(recs) != 3 {
		t.Fatalf("got %d records, want 2 + 1 summary: %v", len(recs), recs)
	}
	if recs[0]["resource"] != res[4].Name() || recs[0]["blocked"] != 1003.0 ||
		recs[1]["resource"] != res[3].Name() || recs[1]["blocked"] != 1002.0 {
		t.Errorf("kept records %v, want r4 (1003) and r3 (1002)", recs[:2])
	}
	if s := recs[2]; s["msg"] != MsgSuppressed || s["resources"] != 3.0 || s["blocked"] != 999.0+1000+1001 {
		t.Errorf("summary %v, want 3 resources with 3000 blocks", s)
	}
}

// TestStartTicksEverySecond drives the goroutine's loop with a fake timer
// and checks that it ticks after each second boundary and stops on Close.
func TestStartTicksEverySecond(t *testing.T) {
	_, res := setup(t, 1)
	l, buf := newLogger(0)
	now := wall.Add(400 * time.Millisecond)
	fire := make(chan time.Time)
	waits := make(chan time.Duration, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.run(ctx, func() time.Time { return now }, func(d time.Duration) <-chan time.Time {
			waits <- d
			return fire
		})
	}()
	if d := <-waits; d != 610*time.Millisecond {
		t.Errorf("first wait %v, want 610ms (to 10 ms past the next second)", d)
	}
	calls(res[0], 3, false)
	now = wall.Add(time.Second + 10*time.Millisecond)
	fire <- now
	<-waits // the tick is written before the next wait starts
	recs := buf.records(t)
	if len(recs) != 1 || recs[0]["blocked"] != 2.0 || recs[0]["second"] != "2026-12-01 11:00:05" {
		t.Fatalf("got %v, want one record of 2 blocks in second 11:00:05", recs)
	}
	cancel()
	<-done

	// Start and Close with the real clock: Close returns.
	s := Start(Config{Logger: slog.New(slog.DiscardHandler)})
	s.Close()
}
