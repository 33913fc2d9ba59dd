package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/dashboardtest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// realDashRes is the resource the real-dashboard test guards: inbound, so
// system rules apply to it, with two hot parameters, as generated code
// declares them.
var realDashRes = runtime.NewResource("realdash.createOrder", runtime.WithTrafficType(runtime.TrafficInbound),
	runtime.WithParamNames("sku", "req"), runtime.WithParamKeys(runtime.ParamKeyString, runtime.ParamNoKey))

// realDashCall is one call of realDashRes from origin with the key sku,
// held in flight until the returned exit runs; blocked is nil when it
// passed. fail traces an error before the exit.
func realDashCall(origin, sku string, fail bool) (blocked *runtime.BlockError, exit func()) {
	ctx := context.Background()
	if origin != "" {
		ctx = runtime.WithOrigin(ctx, origin)
	}
	e := new(runtime.Entry)
	if realDashRes.HasParamRules() {
		blocked = realDashRes.EntryArgsTo(e, ctx, []runtime.ParamArg{runtime.StringArg(sku), {}})
	} else {
		blocked = realDashRes.EntryTo(e, ctx)
	}
	if blocked != nil {
		return blocked, func() {}
	}
	return nil, func() {
		if fail {
			e.TraceError(errors.New("failed"))
		}
		e.Exit()
	}
}

// realDashOnce is one call that ends at once; it returns the block, if any.
func realDashOnce(origin, sku string, fail bool) *runtime.BlockError {
	blocked, exit := realDashCall(origin, sku, fail)
	exit()
	return blocked
}

// TestRealDashboard starts the unmodified Sentinel dashboard 1.8.9 once and
// a Go service in this process (command center and heartbeats), then drives
// the dashboard through its own HTTP API as its pages do: the service
// registers, its calls show in the real-time metrics and the resource tree,
// and a rule of each kind added from the dashboard changes what the
// resource admits, until it is deleted from the dashboard again.
func TestRealDashboard(t *testing.T) {
	d := dashboardtest.Start(t)
	runtime.SetClock(nil)
	clearRules := func() {
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	}
	clearRules()
	t.Cleanup(clearRules)

	const app = "sentinelgen-realdash"
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := Start(Config{App: app, Listen: "127.0.0.1:0", Dashboard: d.Addr, HeartbeatInterval: 2 * time.Second, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ip, port, _ := net.SplitHostPort(srv.Addr().String())
	machine := url.Values{"app": {app}, "ip": {ip}, "port": {port}}
	portN, _ := strconv.Atoi(port)
	entity := func(fields map[string]any) map[string]any {
		fields["app"], fields["ip"], fields["port"] = app, ip, portN
		return fields
	}
	res := realDashRes.Name()

	t.Run("registration", func(t *testing.T) {
		d.T = t
		eventually(t, 30*time.Second, "the app in /app/briefinfos.json", func() bool {
			var apps []struct{ App string }
			_ = json.Unmarshal(d.API(http.MethodGet, "/app/briefinfos.json", nil, nil), &apps)
			for _, a := range apps {
				if a.App == app {
					return true
				}
			}
			return false
		})
		var machines []struct {
			IP, Version, Hostname string
			Port                  int
			Healthy               bool
		}
		if err := json.Unmarshal(d.API(http.MethodGet, "/app/"+app+"/machines.json", nil, nil), &machines); err != nil {
			t.Fatal(err)
		}
		if len(machines) != 1 || machines[0].IP != ip || machines[0].Port != portN || !machines[0].Healthy || machines[0].Version != Version {
			t.Fatalf("machines of %s: %+v, want one healthy machine %s:%s version %s", app, machines, ip, port, Version)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		d.T = t
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // steady traffic while the dashboard fetches seconds
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
					realDashOnce("", "sku-1", false)
				}
			}
		}()
		defer func() { close(stop); wg.Wait() }()
		var seen string
		eventually(t, 60*time.Second, "passed calls of "+res+" in /metric/queryTopResourceMetric.json", func() bool {
			var top struct {
				Metric map[string][]struct {
					PassQps, BlockQps int64
					Timestamp         int64
				}
			}
			raw := d.API(http.MethodGet, "/metric/queryTopResourceMetric.json", url.Values{"app": {app}, "pageIndex": {"1"}, "pageSize": {"6"}, "desc": {"true"}}, nil)
			_ = json.Unmarshal(raw, &top)
			for _, m := range top.Metric[res] {
				if m.PassQps > 0 {
					seen = fmt.Sprintf("%d passed in the second at %d", m.PassQps, m.Timestamp)
					return true
				}
			}
			return false
		})
		t.Log(seen)
		var nodes []struct{ Resource string }
		for _, typ := range []string{"root", "cluster"} {
			q := url.Values{"ip": {ip}, "port": {port}, "type": {typ}}
			if err := json.Unmarshal(d.API(http.MethodGet, "/resource/machineResource.json", q, nil), &nodes); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, n := range nodes {
				found = found || n.Resource == res
			}
			if !found {
				t.Errorf("/resource/machineResource.json type=%s lists %+v, not %s", typ, nodes, res)
			}
		}
	})

	// Each kind: no block before, the kind's block after the dashboard's
	// add, none after its delete.
	t.Run("flow", func(t *testing.T) {
		d.T = t
		var rule struct{ ID int64 }
		raw := d.API(http.MethodPost, "/v1/flow/rule", nil, entity(map[string]any{
			"resource": res, "limitApp": "default", "grade": 1, "count": 0, "strategy": 0, "controlBehavior": 0, "clusterMode": false,
		}))
		_ = json.Unmarshal(raw, &rule)
		expectBlock(t, runtime.BlockTypeFlow, realDashOnce("", "sku-1", false))
		// An edit from the dashboard's dialog raises the count.
		d.API(http.MethodPut, "/v1/flow/save.json", url.Values{"id": {strconv.FormatInt(rule.ID, 10)}, "app": {app},
			"limitApp": {"default"}, "resource": {res}, "grade": {"1"}, "count": {"1000000"}, "strategy": {"0"}, "controlBehavior": {"0"}}, nil)
		if got := runtime.FlowRules(); len(got) != 1 || got[0].Count != 1000000 {
			t.Fatalf("flow rules in force after the dashboard's edit: %+v, want one of count 1000000", got)
		}
		expectBlock(t, 0, realDashOnce("", "sku-1", false))
		d.API(http.MethodDelete, "/v1/flow/delete.json", url.Values{"id": {strconv.FormatInt(rule.ID, 10)}}, nil)
		if got := runtime.FlowRules(); len(got) != 0 {
			t.Fatalf("flow rules in force after the dashboard's delete: %+v", got)
		}
		expectBlock(t, 0, realDashOnce("", "sku-1", false))
	})

	t.Run("degrade", func(t *testing.T) {
		d.T = t
		var rule struct{ ID int64 }
		raw := d.API(http.MethodPost, "/degrade/rule", nil, entity(map[string]any{
			"resource": res, "limitApp": "default", "grade": 2, "count": 1, "timeWindow": 60,
			"minRequestAmount": 1, "statIntervalMs": 60000, "slowRatioThreshold": 1,
		}))
		_ = json.Unmarshal(raw, &rule)
		if n := len(runtime.DegradeRules()); n != 1 {
			t.Fatalf("%d degrade rules in force after the dashboard's add, want 1", n)
		}
		var blocked *runtime.BlockError
		for i := 0; i < 20 && blocked == nil; i++ {
			blocked = realDashOnce("", "sku-1", true)
		}
		expectBlock(t, runtime.BlockTypeDegrade, blocked)
		d.API(http.MethodDelete, "/degrade/rule/"+strconv.FormatInt(rule.ID, 10), nil, nil)
		expectBlock(t, 0, realDashOnce("", "sku-1", false))
	})

	t.Run("paramFlow", func(t *testing.T) {
		d.T = t
		var rule struct{ ID int64 }
		raw := d.API(http.MethodPost, "/paramFlow/rule", nil, entity(map[string]any{"rule": map[string]any{
			"resource": res, "limitApp": "default", "grade": 1, "paramIdx": 0, "count": 0, "durationInSec": 1,
			"controlBehavior": 0, "paramFlowItemList": []any{}, "clusterMode": false,
		}}))
		_ = json.Unmarshal(raw, &rule)
		expectBlock(t, runtime.BlockTypeParamFlow, realDashOnce("", "sku-1", false))
		d.API(http.MethodDelete, "/paramFlow/rule/"+strconv.FormatInt(rule.ID, 10), nil, nil)
		expectBlock(t, 0, realDashOnce("", "sku-1", false))

		// Rules that could never apply to the resource's parameters are
		// refused, and the dashboard shows why.
		for idx, want := range map[int]string{
			1: "parameter req (paramIdx 1) cannot be a hot-parameter key",
			2: "paramIdx 2 is out of range",
		} {
			r := d.Try(http.MethodPost, "/paramFlow/rule", nil, entity(map[string]any{"rule": map[string]any{
				"resource": res, "limitApp": "default", "grade": 1, "paramIdx": idx, "count": 0, "durationInSec": 1,
				"controlBehavior": 0, "paramFlowItemList": []any{}, "clusterMode": false,
			}}))
			if r.Success || !strings.Contains(r.Msg, want) {
				t.Errorf("push of a rule on paramIdx %d: the dashboard answered success=%v %q, want the refusal %q", idx, r.Success, r.Msg, want)
			}
			if n := len(runtime.ParamFlowRules()); n != 0 {
				t.Errorf("%d hot-parameter rules in force after a refused push", n)
			}
			// The dashboard kept the refused rule in its store: reading
			// the machine's rules replaces the store with them.
			var listed []any
			_ = json.Unmarshal(d.API(http.MethodGet, "/paramFlow/rules", machine, nil), &listed)
			if len(listed) != 0 {
				t.Errorf("the dashboard lists %d hot-parameter rules of the machine, want none", len(listed))
			}
		}
	})

	t.Run("system", func(t *testing.T) {
		d.T = t
		var rule struct{ ID int64 }
		q := url.Values{"maxThread": {"1"}}
		for k, v := range machine {
			q[k] = v
		}
		_ = json.Unmarshal(d.API(http.MethodGet, "/system/new.json", q, nil), &rule)
		// Sentinel refuses a call while more inbound calls than maxThread
		// are in flight: hold calls until one is refused.
		var blocked *runtime.BlockError
		held := 0
		for ; held < 5 && blocked == nil; held++ {
			var exit func()
			blocked, exit = realDashCall("", "sku-1", false)
			defer exit()
		}
		if held > 3 {
			t.Errorf("call %d was the first refused with maxThread 1", held)
		}
		expectBlock(t, runtime.BlockTypeSystem, blocked)
		d.API(http.MethodGet, "/system/delete.json", url.Values{"id": {strconv.FormatInt(rule.ID, 10)}}, nil)
		expectBlock(t, 0, realDashOnce("", "sku-1", false))
	})

	t.Run("authority", func(t *testing.T) {
		d.T = t
		var rule struct{ ID int64 }
		raw := d.API(http.MethodPost, "/authority/rule", nil, entity(map[string]any{"rule": map[string]any{
			"resource": res, "limitApp": "evil", "strategy": 1,
		}}))
		_ = json.Unmarshal(raw, &rule)
		expectBlock(t, runtime.BlockTypeAuthority, realDashOnce("evil", "sku-1", false))
		expectBlock(t, 0, realDashOnce("good", "sku-1", false))
		d.API(http.MethodDelete, "/authority/rule/"+strconv.FormatInt(rule.ID, 10), nil, nil)
		expectBlock(t, 0, realDashOnce("evil", "sku-1", false))
	})

	// A read-only service refuses every push. The dashboard reports the
	// refusal of flow and hot-parameter pushes, whose answers it checks,
	// and shows success for degrade, system and authority pushes, whose
	// failure its controllers ignore.
	t.Run("readOnly", func(t *testing.T) {
		d.T = t
		const roApp = app + "-ro"
		ro, err := Start(Config{App: roApp, Listen: "127.0.0.1:0", Dashboard: d.Addr, HeartbeatInterval: 2 * time.Second, ReadOnly: true, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		roIP, roPort, _ := net.SplitHostPort(ro.Addr().String())
		roPortN, _ := strconv.Atoi(roPort)
		eventually(t, 30*time.Second, roApp+" in /app/"+roApp+"/machines.json", func() bool {
			var machines []struct{ Port int }
			_ = json.Unmarshal(d.Try(http.MethodGet, "/app/"+roApp+"/machines.json", nil, nil).Data, &machines)
			return len(machines) == 1 && machines[0].Port == roPortN
		})
		roEntity := func(fields map[string]any) map[string]any {
			fields["app"], fields["ip"], fields["port"] = roApp, roIP, roPortN
			return fields
		}
		flow := d.Try(http.MethodPost, "/v1/flow/rule", nil, roEntity(map[string]any{
			"resource": res, "limitApp": "default", "grade": 1, "count": 0, "strategy": 0, "controlBehavior": 0, "clusterMode": false,
		}))
		if flow.Success || !strings.Contains(flow.Msg, "read-only") {
			t.Errorf("flow push to a read-only service: the dashboard answered success=%v %q, want the refusal", flow.Success, flow.Msg)
		}
		degrade := d.Try(http.MethodPost, "/degrade/rule", nil, roEntity(map[string]any{
			"resource": res, "limitApp": "default", "grade": 2, "count": 1, "timeWindow": 60,
			"minRequestAmount": 1, "statIntervalMs": 60000, "slowRatioThreshold": 1,
		}))
		if !degrade.Success {
			t.Errorf("degrade push to a read-only service: the dashboard answered %q; docs/dashboard.md says it shows success", degrade.Msg)
		}
		if n := len(runtime.FlowRules()) + len(runtime.DegradeRules()); n != 0 {
			t.Errorf("%d rules in force after pushes to a read-only service", n)
		}
		expectBlock(t, 0, realDashOnce("", "sku-1", false))
	})
}

// expectBlock fails unless blocked is a block of type want (0: no block).
func expectBlock(t *testing.T, want runtime.BlockType, blocked *runtime.BlockError) {
	t.Helper()
	switch {
	case want == 0 && blocked != nil:
		t.Fatalf("call blocked by %v (%v), want it to pass", blocked.Type(), blocked)
	case want != 0 && blocked == nil:
		t.Fatalf("call passed, want a %v block", want)
	case want != 0 && blocked.Type() != want:
		t.Fatalf("call blocked by %v (%v), want a %v block", blocked.Type(), blocked, want)
	}
}

// eventually polls cond every half second until it holds or within passes;
// what describes the awaited state for the failure.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
