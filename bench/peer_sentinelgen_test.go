package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// sentinelgenGuard makes the calls that generated wrappers make: EntryTo on a
// Resource handle created once, into an Entry entered in place, and Exit when
// the call returns.
type sentinelgenGuard struct{ resource *runtime.Resource }

// loadSentinelgenRules gives both benchmark resources one QPS flow rule and
// one slow-call-ratio breaker, the same configuration sentinel-golang gets.
// The rotating harness's resources (rotate_test.go) get the same rules.
func loadSentinelgenRules() error {
	flow := []runtime.FlowRule{
		{Resource: passResource, Grade: runtime.FlowGradeQPS, Count: passQPS, ControlBehavior: runtime.BehaviorReject},
		{Resource: blockResource, Grade: runtime.FlowGradeQPS, Count: blockQPS, ControlBehavior: runtime.BehaviorReject},
	}
	degradeFor := []string{passResource, blockResource}
	for i := range placements {
		flow = append(flow,
			runtime.FlowRule{Resource: rotateName("pass", i), Grade: runtime.FlowGradeQPS, Count: passQPS},
			runtime.FlowRule{Resource: rotateName("block", i), Grade: runtime.FlowGradeQPS, Count: blockQPS})
		degradeFor = append(degradeFor, rotateName("pass", i), rotateName("block", i))
	}
	if err := runtime.LoadFlowRules(flow); err != nil {
		return fmt.Errorf("sentinelgen flow rules: %w", err)
	}
	breakerRule := func(resource string) runtime.DegradeRule {
		return runtime.DegradeRule{
			Resource:           resource,
			Grade:              runtime.DegradeSlowRatio,
			Count:              slowCallRTMs,
			SlowRatioThreshold: slowRatioThreshold,
			TimeWindowSec:      breakerOpenForSec,
			MinRequestAmount:   breakerMinRequests,
			StatIntervalMs:     breakerWindowMs,
		}
	}
	var degrade []runtime.DegradeRule
	for _, name := range degradeFor {
		degrade = append(degrade, breakerRule(name))
	}
	if err := runtime.LoadDegradeRules(degrade); err != nil {
		return fmt.Errorf("sentinelgen degrade rules: %w", err)
	}
	return nil
}

func newSentinelgenGuard(resource string) sentinelgenGuard {
	return sentinelgenGuard{resource: runtime.NewResource(resource)}
}

// call makes the calls of a generated wrapper: EntryTo into a local Entry
// entered in place, then Exit. (Resource.Entry, the API for hand-written
// guards, is the rotating harness's "sentinelgen" variant.)
func (g sentinelgenGuard) call(ctx context.Context) outcome {
	var entry runtime.Entry
	if blocked := g.resource.EntryTo(entry.InPlace(), ctx); blocked != nil {
		if blocked.Type() == runtime.BlockTypeFlow {
			return blockedByFlow
		}
		return blockedOther
	}
	entry.Exit()
	return passed
}

func (g sentinelgenGuard) once() outcome { return g.call(context.Background()) }

func (g sentinelgenGuard) loop(b *testing.B, want outcome) {
	ctx := context.Background()
	for b.Loop() {
		if got := g.call(ctx); got != want {
			b.Fatalf("sentinelgen on %s: %v, want %v", g.resource.Name(), got, want)
		}
	}
}

func (g sentinelgenGuard) loopParallel(b *testing.B, want outcome) {
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if got := g.call(ctx); got != want {
				b.Errorf("sentinelgen on %s: %v, want %v", g.resource.Name(), got, want)
				return
			}
		}
	})
}
