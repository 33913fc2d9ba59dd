package zookeeper

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

func TestDefaultPathsFollowSentinel(t *testing.T) {
	want := map[rules.Kind]string{
		rules.KindFlow:        "/sentinel_rule_config/orders",
		rules.KindDegrade:     "/sentinel_rule_config/orders-degrade-rules",
		rules.KindParamFlow:   "/sentinel_rule_config/orders-param-rules",
		rules.KindSystem:      "/sentinel_rule_config/orders-system-rules",
		rules.KindAuthority:   "/sentinel_rule_config/orders-authority-rules",
		rules.KindGatewayFlow: "/sentinel_rule_config/orders-gw-flow-rules",
		rules.KindAPIGroup:    "/sentinel_rule_config/orders-gw-api-group-rules",
	}
	src, err := NewSource(Config{Servers: []string{"127.0.0.1:1"}, App: "orders",
		Paths: map[rules.Kind]string{rules.KindSystem: "", rules.KindAuthority: "/SENTINEL_GROUP/orders-authority-rules"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range SupportedKinds() {
		if got := DefaultPath("", "orders", k); got != want[k] {
			t.Errorf("DefaultPath(orders, %s) = %q, want %q", k, got, want[k])
		}
		w := want[k]
		switch k {
		case rules.KindSystem:
			w = "" // left out by the override
		case rules.KindAuthority:
			w = "/SENTINEL_GROUP/orders-authority-rules"
		}
		if got := src.Path(k); got != w {
			t.Errorf("Path(%s) = %q, want %q", k, got, w)
		}
	}
	if got := DefaultPath("/apps/", "orders", rules.KindFlow); got != "/apps/orders" {
		t.Errorf("DefaultPath with a trailing slash = %q", got)
	}
	if _, err := NewSource(Config{Servers: []string{"x:1"}, Paths: map[rules.Kind]string{rules.KindFlow: "flow"}, Kinds: []rules.Kind{rules.KindFlow}}); err == nil {
		t.Error("NewSource accepted a relative path")
	}
}

func TestInitialReadOfSeveralKinds(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	app := testApp(t)
	put(t, c, DefaultPath("", app, rules.KindFlow), flowJSON("5"))
	put(t, c, DefaultPath("", app, rules.KindDegrade), `[{"resource":"createOrder","grade":0,"count":200,"timeWindow":10,"minRequestAmount":5,"slowRatioThreshold":0.5,"statIntervalMs":1000}]`)
	put(t, c, DefaultPath("", app, rules.KindAuthority), `[{"resource":"createOrder","limitApp":"crawler","strategy":1}]`)
	put(t, c, DefaultPath("", app, rules.KindSystem), `[{"highestSystemLoad":8}]`)
	put(t, c, DefaultPath("", app, rules.KindAPIGroup), `[{"apiName":"orders-api","predicateItems":[{"pattern":"/orders/**","matchStrategy":1}]}]`)
	put(t, c, DefaultPath("", app, rules.KindGatewayFlow), `[{"resource":"orders-api","resourceMode":1,"grade":1,"count":5}]`)
	// Sentinel's Java data source creates its node empty when missing: no
	// document, not a broken one.
	put(t, c, DefaultPath("", app, rules.KindParamFlow), "")

	w, applied := watch(t, newTestSource(t, addr, nil))
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
	if len(set.ParamFlow) != 0 || w.LastError() != nil {
		t.Errorf("param rules %+v, LastError %v: want none from the empty node", set.ParamFlow, w.LastError())
	}
}

func TestChangeReachesTheRuntime(t *testing.T) {
	addr := needServer(t)
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	c := client(t, addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, c, path, `[{"resource":"zkE2E","grade":1,"count":5}]`)
	w := st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	if got := st.RuntimeCount(t, "zkE2E"); got != 5 {
		t.Fatalf("runtime flow count %v after start, want 5", got)
	}
	// Several changes in turn: each needs the watch armed again.
	for _, n := range []string{"7", "8", "9"} {
		put(t, c, path, `[{"resource":"zkE2E","grade":1,"count":`+n+`}]`)
		waitUntil(t, "the change to "+n+" is in force", func() bool { return st.RuntimeCount(t, "zkE2E") == parseFlow(t, flowJSON(n)).Flow[0].Count })
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestBrokenJSONKeepsTheLastGoodRules(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, c, path, flowJSON("10"))
	w, applied := watch(t, newTestSource(t, addr, nil))

	put(t, c, path, `[{"resource":"createOrder","count":`)
	waitUntil(t, "the broken content is rejected", func() bool { return w.Rejected() >= 1 })
	if err := w.LastError(); err == nil || !strings.Contains(err.Error(), "zookeeper:"+path) {
		t.Errorf("LastError() = %v, want it to name the node %s", err, path)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("flow counts %v after the broken content, want the last good [10]", got)
	}
	put(t, c, path, flowJSON("30"))
	waitUntil(t, "the fixed content is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
}

func TestDeletedNodes(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	app := testApp(t)
	flow, degrade := DefaultPath("", app, rules.KindFlow), DefaultPath("", app, rules.KindDegrade)
	put(t, c, flow, flowJSON("10"))
	put(t, c, degrade, `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`)
	w, applied := watch(t, newTestSource(t, addr, nil))
	if s, _ := applied.Last(); len(s.Flow) != 1 || len(s.Degrade) != 1 {
		t.Fatalf("first set %+v, want one flow and one degrade rule", s)
	}

	// One kind's node deleted: no rules of that kind, the others stay.
	remove(t, c, flow)
	waitUntil(t, "the flow rules are lifted", func() bool {
		s, _ := applied.Last()
		return len(s.Flow) == 0 && len(s.Degrade) == 1
	})

	// Every node deleted: gone, the last good rules stay in force.
	remove(t, c, degrade)
	waitUntil(t, "the loss is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
	if s := w.Property().Get(); len(s.Degrade) != 1 {
		t.Errorf("rules in force %+v after every node is gone, want the last good degrade rule", s)
	}

	// A node created again is applied: the existence watch was armed.
	put(t, c, flow, flowJSON("40"))
	waitUntil(t, "the node created again is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{40})
	})
}

func TestStartFailsFastWhenZooKeeperIsDown(t *testing.T) {
	src := newTestSource(t, "127.0.0.1:1", func(c *Config) { c.Timeout = 500 * time.Millisecond })
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := datasource.Watch(ctx, src, datasource.WithLogger(testLogger(t)))
	if err == nil {
		<-w.Done()
		t.Fatal("Watch started with ZooKeeper down")
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") || !strings.Contains(err.Error(), "no session") {
		t.Errorf("error %v, want it to name the server and say no session was had", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Watch took %v to fail", d)
	}
}
