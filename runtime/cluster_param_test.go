package runtime

import (
	"context"
	"sync"
	"testing"
)

// fakeParamTokenService answers param requests with a fixed status and
// records the values it was sent.
type fakeParamTokenService struct {
	constTokenService
	status TokenStatus

	mu     sync.Mutex
	values [][]ParamValue
}

func (s *fakeParamTokenService) RequestParamToken(rule *ParamFlowRule, acquire int64, arg ParamArg) TokenResult {
	var vs []ParamValue
	for i := range arg.Len() {
		vs = append(vs, arg.Value(i))
	}
	s.mu.Lock()
	s.values = append(s.values, vs)
	s.mu.Unlock()
	return TokenResult{Status: s.status}
}

func clusterParamRule(name string, count float64) ParamFlowRule {
	return ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: count, ClusterMode: true,
		ClusterConfig: ClusterConfig{FlowID: 8, ThresholdType: Global, FallbackToLocalWhenFail: true}}
}

// enterParam enters r with args and reports whether the call passed.
func enterParam(r *Resource, args ...ParamArg) bool {
	var e Entry
	if be := r.EntryArgsTo(&e, context.Background(), args); be != nil {
		return false
	}
	e.Exit()
	return true
}

// A param rule in cluster mode is the token server's: OK passes what the
// local count would block, BLOCKED blocks, and any other answer (or a
// service without per-value budgets) leaves it to the local check.
func TestClusterParamRules(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "res"))
	if err := LoadParamFlowRules([]ParamFlowRule{clusterParamRule(r.Name(), 1)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { LoadParamFlowRules(nil) })

	ok := &fakeParamTokenService{status: TokenOK}
	useTokenService(t, ok)
	for i := range 3 {
		if !enterParam(r, StringArg("sku-1")) {
			t.Fatalf("call %d blocked though the server said OK", i)
		}
	}
	if len(ok.values) != 3 || ok.values[0][0] != (ParamValue{Kind: ParamKeyString, Str: "sku-1"}) {
		t.Fatalf("values sent: %+v", ok.values)
	}

	useTokenService(t, &fakeParamTokenService{status: TokenBlocked})
	if enterParam(r, StringArg("sku-2")) {
		t.Fatal("passed though the server said BLOCKED")
	}

	for _, svc := range []TokenService{&fakeParamTokenService{status: TokenFail}, constTokenService{Status: TokenOK}} {
		useTokenService(t, svc)
		v := StringArg(uniqueName(t, "v"))
		if !enterParam(r, v) || enterParam(r, v) {
			t.Fatalf("%T: the local check (1 per second) did not decide", svc)
		}
	}
}

func TestParamArgValues(t *testing.T) {
	for _, c := range []struct {
		arg  ParamArg
		want []ParamValue
	}{
		{IntArg(-5), []ParamValue{{Kind: ParamKeyInt, Int: -5}}},
		{UintArg(uint64(1) << 63), []ParamValue{{Kind: ParamKeyUint, Uint: 1 << 63}}},
		{UintArg(7), []ParamValue{{Kind: ParamKeyInt, Int: 7}}},
		{FloatArg(2.5), []ParamValue{{Kind: ParamKeyFloat, Float: 2.5}}},
		{BoolArg(true), []ParamValue{{Kind: ParamKeyBool, Bool: true}}},
		{StringsArg([]string{"a", "b"}), []ParamValue{{Kind: ParamKeyString, Str: "a"}, {Kind: ParamKeyString, Str: "b"}}},
		{ParamArg{}, nil},
	} {
		var got []ParamValue
		for i := range c.arg.Len() {
			got = append(got, c.arg.Value(i))
		}
		if len(got) != len(c.want) {
			t.Errorf("%v: %+v, want %+v", c.arg, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%v: %+v, want %+v", c.arg, got, c.want)
			}
		}
	}
}
