package nacos

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestDefaultDataIDsFollowSentinel(t *testing.T) {
	want := map[rules.Kind]string{
		rules.KindFlow: "orders-flow-rules", rules.KindDegrade: "orders-degrade-rules",
		rules.KindParamFlow: "orders-param-rules", rules.KindSystem: "orders-system-rules",
		rules.KindAuthority: "orders-authority-rules", rules.KindGatewayFlow: "orders-gw-flow-rules",
		rules.KindAPIGroup: "orders-gw-api-group-rules",
	}
	src, err := NewSource(Config{ServerAddrs: []string{"127.0.0.1:1"}, App: "orders",
		DataIDs: map[rules.Kind]string{rules.KindSystem: ""}, CacheDir: sdkDir(t), LogDir: sdkDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	for _, k := range SupportedKinds() {
		if got := DefaultDataID("orders", k); got != want[k] {
			t.Errorf("DefaultDataID(orders, %s) = %q, want %q", k, got, want[k])
		}
		w := want[k]
		if k == rules.KindSystem {
			w = "" // left out by the override
		}
		if got := src.DataID(k); got != w {
			t.Errorf("DataID(%s) = %q, want %q", k, got, w)
		}
	}
	if src.cfg.Group != "SENTINEL_GROUP" {
		t.Errorf("default group %q, want SENTINEL_GROUP", src.cfg.Group)
	}
}

func TestInitialReadOfSeveralKinds(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	publish(t, addr, app+"-flow-rules", flowJSON("5"))
	publish(t, addr, app+"-degrade-rules", `[{"resource":"createOrder","grade":0,"count":200,"timeWindow":10,"minRequestAmount":5,"slowRatioThreshold":0.5,"statIntervalMs":1000}]`)
	publish(t, addr, app+"-authority-rules", `[{"resource":"createOrder","limitApp":"crawler","strategy":1}]`)
	publish(t, addr, app+"-system-rules", `[{"highestSystemLoad":8}]`)
	publish(t, addr, app+"-gw-api-group-rules", `[{"apiName":"orders-api","predicateItems":[{"pattern":"/orders/**","matchStrategy":1}]}]`)
	publish(t, addr, app+"-gw-flow-rules", `[{"resource":"orders-api","resourceMode":1,"grade":1,"count":5}]`)
	waitUntil(t, "the six dataIds are readable", func() bool {
		for _, k := range []string{"flow", "degrade", "authority", "system", "gw-api-group", "gw-flow"} {
			if stored(t, addr, app+"-"+k+"-rules") == "" {
				return false
			}
		}
		return true
	})
	_, applied := watch(t, newTestSource(t, addr, nil))
	set, n := applied.Last()
	if n != 1 || len(set.Flow) != 1 || len(set.Degrade) != 1 || len(set.Authority) != 1 || len(set.System) != 1 {
		t.Fatalf("first push %+v (%d applied), want one rule of each of the six kinds", set, n)
	}
	if set.Flow[0].Count != 5 || set.Degrade[0].Count != 200 || set.Authority[0].LimitApp != "crawler" {
		t.Errorf("read %+v", set)
	}
	if len(set.GatewayFlow) != 1 || len(set.APIGroups) != 1 {
		t.Errorf("gateway rules %+v and API groups %+v, want one of each", set.GatewayFlow, set.APIGroups)
	}
	if len(set.ParamFlow) != 0 {
		t.Errorf("kinds with no dataId hold rules: %+v", set)
	}
}

func TestPublishReachesTheRuntime(t *testing.T) {
	addr := needServer(t)
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	app := testApp(t)
	publish(t, addr, app+"-flow-rules", `[{"resource":"nacosE2E","grade":1,"count":5}]`)
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, app+"-flow-rules") != "" })
	w := st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	if got := st.RuntimeCount(t, "nacosE2E"); got != 5 {
		t.Fatalf("runtime flow count %v after start, want 5", got)
	}
	publish(t, addr, app+"-flow-rules", `[{"resource":"nacosE2E","grade":1,"count":7}]`)
	waitUntil(t, "the publish is in force", func() bool { return st.RuntimeCount(t, "nacosE2E") == 7 })
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestBrokenJSONKeepsTheLastGoodRules(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	id := app + "-flow-rules"
	publish(t, addr, id, flowJSON("10"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })
	w, applied := watch(t, newTestSource(t, addr, nil))

	// One line, as Nacos's console keeps it: the column places the fault.
	publish(t, addr, id, `[{"resource":"createOrder","count":10,,"grade":1}]`)
	waitUntil(t, "the broken publish is rejected", func() bool { return w.Rejected() >= 1 })
	want := "nacos:SENTINEL_GROUP/" + id + ":1: JSON syntax at column 39:"
	if err := w.LastError(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("LastError() = %v, want it to name the dataId and the position (%q)", err, want)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("flow counts %v after the broken publish, want the last good [10]", got)
	}
	publish(t, addr, id, flowJSON("30"))
	waitUntil(t, "the fixed publish is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
}

func TestDeletedDataIDs(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	publish(t, addr, flow, flowJSON("10"))
	publish(t, addr, degrade, `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`)
	waitUntil(t, "both dataIds are readable", func() bool { return stored(t, addr, flow) != "" && stored(t, addr, degrade) != "" })
	w, applied := watch(t, newTestSource(t, addr, nil))
	if s, _ := applied.Last(); len(s.Flow) != 1 || len(s.Degrade) != 1 {
		t.Fatalf("first set %+v, want one flow and one degrade rule", s)
	}

	// One kind's dataId deleted: no rules of that kind, the others stay.
	remove(t, addr, flow)
	waitUntil(t, "the flow rules are lifted", func() bool {
		s, _ := applied.Last()
		return len(s.Flow) == 0 && len(s.Degrade) == 1
	})

	// Every dataId deleted: gone, the last good rules stay in force.
	remove(t, addr, degrade)
	waitUntil(t, "the loss is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
	if s := w.Property().Get(); len(s.Degrade) != 1 {
		t.Errorf("rules in force %+v after every dataId is gone, want the last good degrade rule", s)
	}

	// A dataId published again applies and clears the report.
	publish(t, addr, flow, flowJSON("30"))
	waitUntil(t, "the returned dataId applies", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30}) && len(s.Degrade) == 0
	})
	waitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
}

// With datasource.WithGoneMeansEmpty, every dataId deleted lifts the rules,
// as for the file and etcd sources.
func TestDeletedDataIDsWithGoneMeansEmpty(t *testing.T) {
	addr := needServer(t)
	id := testApp(t) + "-flow-rules"
	publish(t, addr, id, flowJSON("10"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })
	w, applied := watch(t, newTestSource(t, addr, nil), datasource.WithGoneMeansEmpty())
	if s, _ := applied.Last(); !slices.Equal(st.FlowCounts(s), []float64{10}) {
		t.Fatalf("first set %v, want [10]", st.FlowCounts(s))
	}
	remove(t, addr, id)
	waitUntil(t, "an empty set is applied", func() bool {
		s, n := applied.Last()
		return n >= 2 && s.IsEmpty()
	})
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v with gone meaning empty, want nil", err)
	}
	publish(t, addr, id, flowJSON("20"))
	waitUntil(t, "the returned dataId applies", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{20})
	})
}

func TestStartFailsFastWhenNacosIsDown(t *testing.T) {
	src := newTestSource(t, "127.0.0.1:1", func(c *Config) { c.Timeout = 500 * time.Millisecond })
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := datasource.Watch(ctx, src, datasource.WithLogger(testLogger(t)))
	if err == nil {
		t.Fatal("Watch started with Nacos down")
		<-w.Done()
	}
	if !strings.Contains(err.Error(), "-flow-rules") {
		t.Errorf("error %v, want it to name the dataId", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Watch took %v to fail", d)
	}
}

// With the default timings a Nacos that stops answering is reported within
// 15 s: the next probe starts within the interval and gives up after the
// timeout.
func TestDefaultProbeReportsAnOutageWithin15s(t *testing.T) {
	c := Config{}.withDefaults()
	if c.ProbeInterval != DefaultProbeInterval {
		t.Fatalf("default probe interval %v, want %v", c.ProbeInterval, DefaultProbeInterval)
	}
	if bound := c.ProbeInterval + c.Timeout; bound > 15*time.Second {
		t.Errorf("an outage is reported up to %v after it starts, want at most 15s", bound)
	}
	if c := (Config{ProbeInterval: -1}).withDefaults(); c.ProbeInterval >= 0 {
		t.Errorf("ProbeInterval -1 became %v, want no probe", c.ProbeInterval)
	}
}

func TestStartFromSnapshotWhenNacosIsDown(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	publish(t, addr, app+"-flow-rules", flowJSON("12"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, app+"-flow-rules") != "" })
	cache := sdkDir(t)
	online := newTestSource(t, addr, func(c *Config) { c.CacheDir = cache })
	_, applied := watch(t, online)
	if s, _ := applied.Last(); !slices.Equal(st.FlowCounts(s), []float64{12}) {
		t.Fatalf("online read %v, want [12]", st.FlowCounts(s))
	}

	// The same app on a Nacos that does not answer: with the option it
	// starts on the snapshot the SDK kept, without it it fails.
	down := func(c *Config) {
		c.ServerAddrs, c.CacheDir, c.Timeout = []string{"127.0.0.1:1"}, cache, 500*time.Millisecond
	}
	offline := newTestSource(t, addr, func(c *Config) { down(c); c.StartFromSnapshot = true })
	w, fromSnapshot := watch(t, offline)
	if s, _ := fromSnapshot.Last(); !slices.Equal(st.FlowCounts(s), []float64{12}) {
		t.Errorf("started on %v from the snapshot, want [12]", st.FlowCounts(s))
	}
	// Started on the snapshot, the service still hears that Nacos is down.
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	if err := w.LastError(); !strings.Contains(err.Error(), "local snapshot") {
		t.Errorf("LastError() = %v, want it to say the rules are the local snapshot", err)
	}
	strict := newTestSource(t, addr, down)
	if w, err := datasource.Watch(context.Background(), strict, datasource.WithInitialTimeout(waitTimeout)); err == nil {
		<-w.Done()
		t.Error("Watch without StartFromSnapshot started with Nacos down")
	}
}
