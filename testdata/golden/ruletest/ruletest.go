// Package ruletest sets up the runtime for the behaviour tests of the golden
// cases: a manual clock (so nothing sleeps) and the rules a test needs, both
// undone when the test ends. It has no directives, so the generator writes
// nothing for it.
package ruletest

import (
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Use installs a manual clock and exactly the given flow and degrade rules
// for the rest of t.
func Use(t testing.TB, flow []runtime.FlowRule, degrade []runtime.DegradeRule) {
	t.Helper()
	UseRules(t, runtime.Rules{Flow: flow, Degrade: degrade})
}

// UseRules installs a manual clock and exactly the given rules of every
// kind for the rest of t; it returns the clock.
func UseRules(t testing.TB, rules runtime.Rules) *runtime.ManualClock {
	t.Helper()
	clock := runtime.NewManualClock(time.Hour)
	runtime.SetClock(clock)
	if err := runtime.LoadRules(rules); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = runtime.LoadRules(runtime.Rules{})
		runtime.SetClock(nil)
	})
	return clock
}

// UseFlow is Use with flow rules only.
func UseFlow(t testing.TB, rules ...runtime.FlowRule) { Use(t, rules, nil) }
