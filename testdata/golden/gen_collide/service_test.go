package collide

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func callDo(s *GuardedService) (string, error) {
	return s.Do(context.Background(), 1, "two", []byte("three"), true, 5.5, 'x', errors.New("eight"))
}

func TestCollidingNamesAreForwarded(t *testing.T) {
	ruletest.UseFlow(t)
	if got, err := callDo(NewGuardedService(&Service{})); got != "1 two three true 5.5 x eight\n" || err != nil {
		t.Fatalf("Do = %q, %v; want every argument forwarded in place", got, err)
	}
	if got, err := callDo(NewGuardedService(&Service{Fail: errors.New("bad")})); got != "fallback 1 two bad\n" || err != nil {
		t.Fatalf("failing Do = %q, %v; want the fallback", got, err)
	}
	if got, err := callDo(NewGuardedService(&Service{Fail: errIgnored})); got != "" || err != errIgnored {
		t.Fatalf("Do with an ignored error = %q, %v; want it unchanged", got, err)
	}
	if got, err := NewGuardedService(&Service{}).Unnamed(context.Background(), 1, "a"); got != "unnamed" || err != nil {
		t.Fatalf("Unnamed = %q, %v", got, err)
	}
	if got, err := NewGuardedService(&Service{Fail: errors.New("bad")}).Blank(context.Background(), 7, "z"); got != "blankFallback 7 z\n" || err != nil {
		t.Fatalf("failing Blank = %q, %v; want the fallback given the blank arguments", got, err)
	}
	if got, err := NewGuardedService(&Service{}).Wait(time.Second); got != 2*time.Second || err != nil {
		t.Fatalf("Wait = %v, %v", got, err)
	}
}

func TestCollidingNamesBlocked(t *testing.T) {
	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "collide.do", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "collide.unnamed", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "collide.wait", Grade: runtime.FlowGradeQPS, Count: 0})
	if got, err := callDo(NewGuardedService(&Service{})); got != "blocked 1 two three true 5.5 x eight\n" || err != nil {
		t.Fatalf("blocked Do = %q, %v; want the blockHandler given every argument", got, err)
	}
	if got, err := NewGuardedService(&Service{}).Unnamed(context.Background(), 1, "a"); got != "" || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked Unnamed = %q, %v; want the block error", got, err)
	}
	if got, err := NewGuardedService(&Service{}).Wait(time.Second); got != 0 || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked Wait = %v, %v; want 0 and the block error", got, err)
	}
}

// Parameters named like the key conversions' types are keys all the same.
func TestParamsNamedLikeKeyTypes(t *testing.T) {
	ruletest.UseRules(t, runtime.Rules{ParamFlow: []runtime.ParamFlowRule{
		{Resource: "collide.convert", ParamIdx: 2, Count: 0, Items: []runtime.ParamFlowItem{{Object: "ok", Count: 10}}},
	}})
	g := NewGuardedService(&Service{})
	if got, err := g.Convert(context.Background(), 1, 0.5, "ok", true, 3); got != "1 0.5 ok true 3\n" || err != nil {
		t.Fatalf("Convert = %q, %v; want every argument forwarded", got, err)
	}
	if _, err := g.Convert(context.Background(), 1, 0.5, "hot", true, 3); !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("Convert(hot) error = %v; want the param-flow block", err)
	}
}
