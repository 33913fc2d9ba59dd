package runtime

import (
	"context"
	"testing"
	"time"
)

// The direct paths of enter and Exit (enter.go, exit.go) and enterGeneral and
// exitGeneral must leave the same statistics, block the same calls with the
// same errors and fill Entries that exit alike. Two resources get the same
// rules and the same traffic; one is called plainly, which takes the direct
// paths, and the other with AcquireCount(1) and under an authority rule
// that refuses an origin its calls do not have: both mean nothing for
// these calls, but the first sends every call to enterGeneral and the second
// (through guard) every exit to exitGeneral. A warm-up rule of a third
// resource relates to both, so that both count the previous second's
// passes too (node.perSecond).
func TestDirectPathMatchesGeneralPath(t *testing.T) {
	clock := useManualClock(t)
	direct, general := NewResource(uniqueName(t, "direct")), NewResource(uniqueName(t, "general"))
	reader := NewResource(uniqueName(t, "reader"))
	var flow []FlowRule
	var degrade []DegradeRule
	for _, r := range []*Resource{direct, general} {
		flow = append(flow,
			FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 200},
			FlowRule{Resource: reader.Name(), Grade: FlowGradeQPS, Count: 1e9, Strategy: StrategyRelate, RefResource: r.Name(), ControlBehavior: BehaviorWarmUp, WarmUpPeriodSec: 10})
		degrade = append(degrade, DegradeRule{Resource: r.Name(), Grade: DegradeSlowRatio, Count: 2, SlowRatioThreshold: 0.5, MinRequestAmount: 5, StatIntervalMs: 1000, TimeWindowSec: 2})
	}
	authority := []AuthorityRule{{Resource: general.Name(), LimitApp: "nobody", Strategy: AuthorityBlack}}
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade, Authority: authority}); err != nil {
		t.Fatal(err)
	}
	if !direct.rules.Load().directOnly() {
		t.Fatal("the plain resource's rule set takes the general path: the test would not exercise the direct path")
	}
	if x := general.rules.Load().extras; x == nil || !x.guarded {
		t.Fatal("the other resource's calls do not go through guard: the test would not exercise exitGeneral")
	}
	ctx := context.Background()
	var directPasses, previousCounted int
	blocks := map[BlockType]int{}
	const perSecond = 250
	for step := range 12 * perSecond {
		// 250 calls a second over twelve seconds, of four kinds: fast
		// (response times up to 2 ms), slow (3 ms, over the breaker's 2),
		// fast, and turning (fast for the first 40% of the second, slow
		// after), where the breaker's judgement settles on good calls
		// before bad ones push its ratio over. The QPS rule blocks a fifth
		// of each second and the breaker opens, so that calls leave the
		// direct paths and come back to them. Below about 140 calls in a
		// window TakePinned answers from its fast path (the cache's slack
		// is 63 with one stripe), above it from its two steps.
		rt := time.Duration(step%3) * time.Millisecond
		switch inSecond := step % perSecond; step / perSecond % 4 {
		case 1:
			rt = 3 * time.Millisecond
		case 3:
			if inSecond >= perSecond*4/10 {
				rt = 3 * time.Millisecond
			}
		}
		c, cb := direct.Entry(ctx)
		g, gb := general.Entry(ctx, AcquireCount(1))
		if (cb == nil) != (gb == nil) || cb != nil && gb != nil && cb.Type() != gb.Type() {
			t.Fatalf("step %d: direct path blocked by %v, general path by %v", step, cb, gb)
		}
		if cb != nil {
			if cb.Blocked() != gb.Blocked() {
				t.Fatalf("step %d: the block errors counted %d and %d calls", step, cb.Blocked(), gb.Blocked())
			}
			blocks[cb.Type()]++
		} else {
			directPasses++
			if c.startNs != g.startNs || c.secondID != g.secondID || c.acquire != g.acquire || c.probes != g.probes || c.via != g.via {
				t.Fatalf("step %d: the Entries differ: direct %+v, general %+v", step, c, g)
			}
		}
		clock.Advance(rt)
		c.Exit()
		g.Exit()
		if sc, sg := snapshotOf(direct), snapshotOf(general); sc != sg {
			t.Fatalf("step %d: statistics differ: direct %+v, general %+v", step, sc, sg)
		}
		nowMs := nowNanos() / 1e6
		if pc, pg := direct.stats.previousSecondPass(nowMs), general.stats.previousSecondPass(nowMs); pc != pg {
			t.Fatalf("step %d: previous-second passes differ: direct %d, general %d", step, pc, pg)
		} else if pc > 0 {
			previousCounted++
		}
		clock.Advance(time.Second/perSecond - rt)
	}
	if directPasses < 100 {
		t.Fatalf("only %d calls passed: the traffic does not exercise the pass path", directPasses)
	}
	if blocks[BlockTypeFlow] == 0 || blocks[BlockTypeDegrade] == 0 {
		t.Fatalf("blocks by type %v: the traffic must meet both the QPS rule and an open breaker", blocks)
	}
	if previousCounted == 0 {
		t.Fatal("no previous-second passes counted: the warm-up reader did not turn them on")
	}
}

// snapshotOf is r's Snapshot without its name.
func snapshotOf(r *Resource) Snapshot {
	s := r.Snapshot()
	s.Resource = ""
	return s
}

// A resource no rule names takes the direct path too, and records what
// enterGeneral records.
func TestDirectPathWithoutRules(t *testing.T) {
	clock := useManualClock(t)
	direct, general := NewResource(uniqueName(t, "direct")), NewResource(uniqueName(t, "general"))
	if direct.rules.Load() != nil || !noRules.directOnly() {
		t.Fatal("a resource without rules must have the empty rule set, which takes the direct path")
	}
	ctx := context.Background()
	for step := range 1000 {
		c, cb := direct.Entry(ctx)
		g, gb := general.Entry(ctx, AcquireCount(1))
		if cb != nil || gb != nil {
			t.Fatalf("step %d: blocked without rules: %v, %v", step, cb, gb)
		}
		if c.startNs != g.startNs || c.secondID != g.secondID || c.acquire != g.acquire || c.rules != g.rules {
			t.Fatalf("step %d: the Entries differ: direct %+v, general %+v", step, c, g)
		}
		rt := time.Duration(step%4) * time.Millisecond
		clock.Advance(rt)
		c.Exit()
		g.Exit()
		if sc, sg := snapshotOf(direct), snapshotOf(general); sc != sg || sc.Pass == 0 {
			t.Fatalf("step %d: statistics differ (or count nothing): direct %+v, general %+v", step, sc, sg)
		}
		clock.Advance(5*time.Millisecond - rt)
	}
}
