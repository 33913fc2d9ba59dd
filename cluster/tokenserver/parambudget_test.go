package tokenserver

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/cluster/internal/tokenwire"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func paramRule(id int64, count float64, typ runtime.ThresholdType, items ...runtime.ParamFlowItem) runtime.ParamFlowRule {
	return runtime.ParamFlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: count, Items: items, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: id, ThresholdType: typ, FallbackToLocalWhenFail: true}}
}

func str(s string) tokenwire.Param   { return tokenwire.Param{Tag: tokenwire.TagString, Str: s} }
func long(n int64) tokenwire.Param   { return tokenwire.Param{Tag: tokenwire.TagInt64, Int: n} }
func int32p(n int64) tokenwire.Param { return tokenwire.Param{Tag: tokenwire.TagInt32, Int: n} }

func TestParamBudgetPerValue(t *testing.T) {
	s, clock := newTestServer(t, Config{})
	err := s.LoadParamFlowRules("orders", []runtime.ParamFlowRule{
		paramRule(1, 2, runtime.Global, runtime.ParamFlowItem{Object: "vip", ClassType: "String", Count: 4},
			runtime.ParamFlowItem{Object: "7", ClassType: "int", Count: 1}),
	})
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		params    []tokenwire.Param
		status    runtime.TokenStatus
		remaining int32
	}
	for i, st := range []step{
		{[]tokenwire.Param{str("a")}, runtime.TokenOK, 1},
		{[]tokenwire.Param{str("a")}, runtime.TokenOK, 0},
		{[]tokenwire.Param{str("a")}, runtime.TokenBlocked, 0},
		{[]tokenwire.Param{str("b")}, runtime.TokenOK, 1},            // a value of its own
		{[]tokenwire.Param{str("vip")}, runtime.TokenOK, 3},          // its item's count
		{[]tokenwire.Param{long(7)}, runtime.TokenOK, 0},             // the int item, sent as a long
		{[]tokenwire.Param{int32p(7)}, runtime.TokenBlocked, 0},      // the same number as an int
		{[]tokenwire.Param{str("c"), str("d")}, runtime.TokenOK, -1}, // several values
		{[]tokenwire.Param{str("c"), str("a")}, runtime.TokenBlocked, 0},
		{[]tokenwire.Param{str("c")}, runtime.TokenOK, 0}, // the blocked call took nothing from c
	} {
		res, rem := s.RequestParamToken(1, 1, st.params)
		if res.Status != st.status || rem != st.remaining {
			t.Fatalf("step %d %v: %v remaining %d, want %v remaining %d", i, st.params, res.Status, rem, st.status, st.remaining)
		}
	}
	clock.ms += 1000
	if res, _ := s.RequestParamToken(1, 1, []tokenwire.Param{str("a")}); res.Status != runtime.TokenOK {
		t.Fatalf("a second later: %v", res.Status)
	}
	if res, _ := s.RequestParamToken(2, 1, []tokenwire.Param{str("a")}); res.Status != runtime.TokenNoRuleExists {
		t.Fatalf("unknown flowId: %v", res.Status)
	}
	if res, _ := s.RequestParamToken(1, 1, nil); res.Status != runtime.TokenBadRequest {
		t.Fatalf("no values: %v", res.Status)
	}
}

func TestParamBudgetAvgLocal(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if err := s.LoadParamFlowRules("orders", []runtime.ParamFlowRule{paramRule(3, 1, runtime.AvgLocal)}); err != nil {
		t.Fatal(err)
	}
	if res, _ := s.RequestParamToken(3, 1, []tokenwire.Param{str("a")}); res.Status != runtime.TokenBlocked {
		t.Fatalf("no client connected: %v", res.Status)
	}
	s.namespaces["orders"].join("10.0.0.1:1")
	s.namespaces["orders"].join("10.0.0.2:1")
	passed := 0
	for range 5 {
		if res, _ := s.RequestParamToken(3, 1, []tokenwire.Param{str("a")}); res.Status == runtime.TokenOK {
			passed++
		}
	}
	if passed != 2 {
		t.Fatalf("two clients × 1: %d passed", passed)
	}
}
