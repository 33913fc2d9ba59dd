package runtime

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// admitted counts how many of n calls from ctx pass.
func admitted(r *Resource, clock *ManualClock, ctx context.Context, n int) int {
	k := 0
	for range n {
		if ok, _ := callCtx(ctx, r, clock, 0, nil); ok {
			k++
		}
	}
	return k
}

// A rule for one origin counts that origin's calls only; "other" counts
// each origin no rule names on its own node; "default" counts every call.
func TestFlowLimitAppSelectsNode(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 2, LimitApp: "app-a"},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1, LimitApp: "other"},
	)
	if got := admitted(r, clock, from("app-a"), 5); got != 2 {
		t.Errorf("app-a: %d admitted, want 2 (its own rule)", got)
	}
	if got := admitted(r, clock, from("app-b"), 5); got != 1 {
		t.Errorf("app-b: %d admitted, want 1 (other)", got)
	}
	if got := admitted(r, clock, from("app-c"), 5); got != 1 {
		t.Errorf("app-c: %d admitted, want 1 (other, its own node)", got)
	}
	// No origin: neither the app-a rule nor "other" applies.
	if got := admitted(r, clock, context.Background(), 5); got != 5 {
		t.Errorf("no origin: %d admitted, want 5", got)
	}
	// A new second refills every origin's budget.
	clock.Advance(time.Second)
	if got := admitted(r, clock, from("app-a"), 5); got != 2 {
		t.Errorf("app-a in the next second: %d admitted, want 2", got)
	}

	// "default" counts every caller together.
	clock.Advance(time.Second)
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 3, LimitApp: "default"})
	got := admitted(r, clock, from("x"), 2) + admitted(r, clock, from("y"), 2) + admitted(r, clock, context.Background(), 2)
	if got != 3 {
		t.Errorf("default: %d admitted of 6 calls from three callers, want 3", got)
	}
}

// Sentinel's FlowRuleComparator puts "default" rules after the rules for
// some callers, whatever the load order: the block names the specific rule.
func TestFlowLimitAppOrder(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0, LimitApp: "app-a"},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0, LimitApp: "other"},
	)
	for origin, want := range map[string]string{"app-a": "flow rule #1", "app-b": "flow rule #2", "": "flow rule #0"} {
		_, be := callCtx(from(origin), r, clock, 0, nil)
		if be == nil || !strings.HasPrefix(be.Rule(), want) {
			t.Errorf("origin %q: blocked by %v, want %s", origin, be, want)
		}
	}
}

// Relate and chain rules keep their meaning under a LimitApp: the origin
// only decides whether the rule applies.
func TestFlowLimitAppRelateAndChain(t *testing.T) {
	clock := useManualClock(t)
	r, rel := NewResource(uniqueName(t, "r")), NewResource(uniqueName(t, "rel"))
	entrance := uniqueName(t, "entrance")
	mustLoadFlow(t,
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1, LimitApp: "app-a", Strategy: StrategyRelate, RefResource: rel.Name()},
		FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1, LimitApp: "app-b", Strategy: StrategyChain, RefResource: entrance},
	)
	call(rel, clock, 0, nil)
	call(rel, clock, 0, nil) // rel is at 2 QPS
	if ok, _ := callCtx(from("app-a"), r, clock, 0, nil); ok {
		t.Error("app-a admitted although the related resource is over the relate rule's count")
	}
	if ok, _ := callCtx(from("app-c"), r, clock, 0, nil); !ok {
		t.Error("app-c refused by rules for app-a and app-b")
	}
	viaB := WithEntrance(from("app-b"), entrance)
	if got := admitted(r, clock, viaB, 3); got != 1 {
		t.Errorf("app-b through the entrance: %d admitted, want 1", got)
	}
	if got := admitted(r, clock, from("app-b"), 3); got != 3 {
		t.Errorf("app-b through no entrance: %d admitted, want 3 (the chain rule does not apply)", got)
	}
}

// The nodes of "other" origins are bounded; origins past the bound share
// one node, so they are limited together rather than not at all.
func TestOtherOriginsBounded(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1, LimitApp: "other"})
	for i := range maxOtherOrigins {
		if ok, be := callCtx(from("o"+strconv.Itoa(i)), r, clock, 0, nil); !ok {
			t.Fatalf("origin %d refused: %v", i, be)
		}
	}
	others := r.rules.Load().extras.origins.others
	if n := others.count.Load(); n != maxOtherOrigins {
		t.Fatalf("%d other nodes, want %d", n, maxOtherOrigins)
	}
	if ok, _ := callCtx(from("late-1"), r, clock, 0, nil); !ok {
		t.Fatal("the first origin past the bound refused")
	}
	if ok, _ := callCtx(from("late-2"), r, clock, 0, nil); ok {
		t.Fatal("a second origin past the bound admitted: overflowing origins must share a node")
	}
	if n := others.count.Load(); n != maxOtherOrigins {
		t.Fatalf("%d other nodes after overflow, want %d", n, maxOtherOrigins)
	}
}

// A reload that keeps a per-origin rule keeps that origin's statistics.
func TestOriginNodesSurviveReload(t *testing.T) {
	clock := useManualClock(t)
	r, s := NewResource(uniqueName(t, "r")), NewResource(uniqueName(t, "s"))
	rule := FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1, LimitApp: "app-a"}
	mustLoadFlow(t, rule)
	callCtx(from("app-a"), r, clock, 0, nil)
	mustLoadFlow(t, rule, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100}, FlowRule{Resource: s.Name(), Count: 1})
	if ok, _ := callCtx(from("app-a"), r, clock, 0, nil); ok {
		t.Fatal("app-a's count was lost in a reload")
	}
}
