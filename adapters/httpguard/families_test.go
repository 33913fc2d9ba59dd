package httpguard

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The param-flow, authority and system rule families through the adapter,
// end to end over a real server: hot parameters from the request,
// authority from the origin header, system protection of inbound routes.

func TestHotParameterFromPathValue(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New().HandleFunc(mux, "GET /hot/{sku}", ok, WithParams(Query("unused"), PathValue("sku")))
	mustLoad(t, runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{
		Resource: "GET /hot/{sku}", Grade: runtime.FlowGradeQPS, ParamIdx: 1, Count: 1,
		Items: []runtime.ParamFlowItem{{Object: "vip", ClassType: "String", Count: 3}},
	}}})
	srv := serve(t, mux)
	if r := get(t, srv, "/hot/a"); r.status != 200 {
		t.Fatalf("first a: %d", r.status)
	}
	r := get(t, srv, "/hot/a")
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "param-flow") {
		t.Errorf("second a: %d %q, want 429 by the param-flow rule", r.status, r.body)
	}
	if r := get(t, srv, "/hot/b"); r.status != 200 {
		t.Errorf("b has its own budget: %d", r.status)
	}
	for i := range 3 {
		if r := get(t, srv, "/hot/vip"); r.status != 200 {
			t.Errorf("vip call %d: %d, want its item's 3 per second", i, r.status)
		}
	}
	if names := findResource("GET /hot/{sku}").ParamNames(); strings.Join(names, ",") != "unused,sku" {
		t.Errorf("param names %q", names)
	}
}

func TestHotParametersComputedOnlyUnderParamRules(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	var calls atomic.Int64 // read by the test, written by the server's goroutines
	New().HandleFunc(mux, "GET /hotcount", ok, WithParams(ParamFunc("tenant", func(r *http.Request) runtime.ParamArg {
		calls.Add(1)
		return runtime.StringArg(r.Header.Get("X-Tenant"))
	})))
	srv := serve(t, mux)
	get(t, srv, "/hotcount")
	if calls := calls.Load(); calls != 0 {
		t.Fatalf("argument computed %d times without a param rule", calls)
	}
	mustLoad(t, runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /hotcount", Grade: runtime.FlowGradeQPS, Count: 1}}})
	get(t, srv, "/hotcount", "X-Tenant", "acme")
	if r := get(t, srv, "/hotcount", "X-Tenant", "acme"); r.status != http.StatusTooManyRequests {
		t.Errorf("second acme: %d, want 429", r.status)
	}
	if calls := calls.Load(); calls != 2 {
		t.Errorf("argument computed %d times under a param rule, want 2", calls)
	}
}

func TestHotParameterClientIPUnderMux(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ipmux/{id}", ok)
	mustLoad(t, runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /ipmux/{id}", Grade: runtime.FlowGradeQPS, ParamIdx: 1, Count: 1}}})
	srv := serve(t, New().Mux(mux, WithParams(PathValue("id"), ClientIP())))
	get(t, srv, "/ipmux/1")
	if r := get(t, srv, "/ipmux/2"); r.status != http.StatusTooManyRequests {
		t.Errorf("second call from 127.0.0.1: %d, want 429 (the client IP's budget)", r.status)
	}
}

func TestAuthorityFromOriginHeader(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New(WithOriginHeader("X-Caller")).HandleFunc(mux, "GET /auth", ok)
	mustLoad(t, runtime.Rules{Authority: []runtime.AuthorityRule{{Resource: "GET /auth", LimitApp: "billing,shop", Strategy: runtime.AuthorityWhite}}})
	srv := serve(t, mux)
	if r := get(t, srv, "/auth", "X-Caller", "shop"); r.status != 200 {
		t.Errorf("listed caller: %d", r.status)
	}
	r := get(t, srv, "/auth", "X-Caller", "intruder")
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") != "" || !strings.Contains(r.body, "authority") {
		t.Errorf("unlisted caller: %d, Retry-After %q, %q; want 429 without Retry-After", r.status, r.header.Get("Retry-After"), r.body)
	}
	if r := get(t, srv, "/auth"); r.status != 200 {
		t.Errorf("no origin passes, as in Sentinel: %d", r.status)
	}
}

func TestSystemRuleGuardsInboundRoutes(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New().HandleFunc(mux, "GET /sys/in", ok)
	New(WithTrafficType(runtime.TrafficOutbound)).HandleFunc(mux, "GET /sys/out", ok)
	mustLoad(t, runtime.Rules{System: []runtime.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 1, AvgRT: -1, MaxThread: -1}}})
	srv := serve(t, mux)
	get(t, srv, "/sys/in")
	r := get(t, srv, "/sys/in")
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "system") {
		t.Errorf("second inbound call: %d %q, want 429 by the system rule", r.status, r.body)
	}
	for range 3 {
		if r := get(t, srv, "/sys/out"); r.status != 200 {
			t.Errorf("outbound route: %d; system rules check inbound only", r.status)
		}
	}
}
