package gateway

import (
	"net/http"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// A reload of the runtime's own rules (what a rules file reload does)
// keeps the gateway's limits, and a gateway reload keeps the user's
// hot-parameter rules: the two are kept apart, as in Sentinel.
func TestReloadsKeepEachOthersRules(t *testing.T) {
	setup(t)
	g := NewGuard(okHandler(), WithRoute(func(*http.Request) string { return "gw-route" }))
	mustLoad(t, []FlowRule{{Resource: "gw-route", Grade: runtime.FlowGradeQPS, Count: 1}}, nil)
	user := runtime.ParamFlowRule{Resource: "user-resource", Grade: runtime.FlowGradeQPS, Count: 3}
	if err := runtime.LoadRules(runtime.Rules{ParamFlow: []runtime.ParamFlowRule{user}}); err != nil {
		t.Fatal(err)
	}
	if got := statuses(g, req("/a"), req("/a")); got[0] != 200 || got[1] != 429 {
		t.Fatalf("after a reload of the user's rules the gateway answered %v, want [200 429]", got)
	}
	mustLoad(t, []FlowRule{{Resource: "gw-route", Grade: runtime.FlowGradeQPS, Count: 5}}, nil)
	if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].Resource != "user-resource" {
		t.Fatalf("user's rules after a gateway reload: %+v", got)
	}
	if got := runtime.GatewayParamFlowRules(); len(got) != 1 || got[0].Count != 5 {
		t.Fatalf("gateway's rules after its reload: %+v", got)
	}
}
