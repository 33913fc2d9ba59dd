package javainterop

import (
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The Go client allocates nothing per call, flow or hot-parameter request,
// counted with the server in a process of its own.
func TestClientCallsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop the client's waiters")
	}
	flow := runtime.FlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 1e9, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 101, ThresholdType: runtime.Global}}
	param := runtime.ParamFlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 1e9, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 111, ThresholdType: runtime.Global, FallbackToLocalWhenFail: true}}
	srv := goServerProcess(t, freePort(t), []runtime.FlowRule{flow}, tokenserver.FlowConfig{MaxAllowedQps: 1e9}, param)
	srv.pid = srv.start()
	c, err := tokenclient.New(tokenclient.Config{Addr: srv.addr, Namespace: namespace, RequestTimeout: time.Second, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitConnected(t, c, 20*time.Second)
	arg := runtime.StringsArg([]string{"sku-1", "sku-2"})
	for name, call := range map[string]func() runtime.TokenStatus{
		"flow":  func() runtime.TokenStatus { return c.RequestToken(&flow, 1, false).Status },
		"param": func() runtime.TokenStatus { return c.RequestParamToken(&param, 1, arg).Status },
	} {
		if st := call(); st != runtime.TokenOK {
			t.Fatalf("%s: %v", name, st)
		}
		if n := testing.AllocsPerRun(200, func() { call() }); n != 0 {
			t.Errorf("%s request: %v allocations per call", name, n)
		}
	}
}
