package etcd

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// familiesSet has one rule of each of the kinds beside flow and degrade,
// with thresholds derived from n.
func familiesSet(n float64) rules.Set {
	return rules.Set{
		ParamFlow: []runtime.ParamFlowRule{{Resource: "createOrder", ParamIdx: 0, Count: n, DurationInSec: 1,
			Items: []runtime.ParamFlowItem{{Object: "hot", ClassType: "String", Count: 1}}}},
		System:    []runtime.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 100 * n, AvgRT: -1, MaxThread: -1}},
		Authority: []runtime.AuthorityRule{{Resource: "createOrder", LimitApp: "app-bad", Strategy: runtime.AuthorityBlack}},
	}
}

// Write under an empty prefix creates one Sentinel JSON key per kind, as
// Java services keep them (param-flow.json, system.json, authority.json
// beside flow.json and degrade.json), all in one transaction.
func TestWriteCreatesAKeyForEveryKind(t *testing.T) {
	_, cli := server(t)
	const prefix = "/sentinel/kinds/"
	src := newTestSource(t, cli, prefix, WithPrefix())
	set := flowSet(5).Merge(degradeSet()).Merge(familiesSet(3))
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	var rev int64
	for _, k := range rules.Kinds() {
		key := prefix + string(k) + ".json"
		if got := stored(t, src, key); !got.Equal(set.Only(k)) {
			t.Errorf("%s holds %+v, want the %s rules only", key, got, k)
		}
		if _, r := get(t, cli, key); rev != 0 && r != rev {
			t.Errorf("%s at revision %d, others at %d: want one transaction", key, r, rev)
		} else {
			rev = r
		}
	}
}

// Keys of every kind reach the runtime through rules.Apply; a malformed
// param-flow key changes no kind, and the last good rules stay in force.
func TestEveryKindReachesTheRuntime(t *testing.T) {
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	_, cli := server(t)
	const prefix = "/sentinel/orders-all/"
	put(t, cli, prefix+"flow.json", `[{"resource":"createOrder","count":5}]`)
	put(t, cli, prefix+"param-flow.json", `[{"resource":"createOrder","paramIdx":0,"count":4,"paramFlowItemList":[{"object":"hot","classType":"String","count":1}]}]`)
	put(t, cli, prefix+"system.json", `[{"highestSystemLoad":-1,"highestCpuUsage":-1,"qps":500,"avgRt":-1,"maxThread":-1}]`)
	put(t, cli, prefix+"authority.json", `[{"resource":"createOrder","limitApp":"app-bad","strategy":1}]`)
	w := st.StartWatcher(t, newTestSource(t, cli, prefix, WithPrefix()), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))

	inForce := func() string {
		var b strings.Builder
		for _, r := range runtime.ParamFlowRules() {
			b.WriteString("param " + r.Resource + " ")
		}
		for range runtime.SystemRules() {
			b.WriteString("system ")
		}
		for _, r := range runtime.AuthorityRules() {
			b.WriteString("authority " + r.LimitApp)
		}
		return b.String()
	}
	if got := inForce(); got != "param createOrder system authority app-bad" {
		t.Fatalf("in force after start: %q", got)
	}
	good := rules.Current()
	if len(good.ParamFlow) != 1 || good.ParamFlow[0].Count != 4 || good.System[0].QPS != 500 || st.RuntimeCount(t, "createOrder") != 5 {
		t.Fatalf("rules in force %+v", good)
	}

	// A paramIdx that is not a number is refused: the whole push is, and
	// every kind keeps its rules.
	put(t, cli, prefix+"flow.json", `[{"resource":"createOrder","count":6}]`)
	waitUntil(t, "the flow change applies", func() bool { return st.RuntimeCount(t, "createOrder") == 6 })
	good = rules.Current()
	put(t, cli, prefix+"param-flow.json", `[{"resource":"createOrder","paramIdx":"first","count":4}]`)
	waitUntil(t, "the malformed update is rejected", func() bool { return w.Rejected() == 1 })
	if err := w.LastError(); err == nil || !strings.Contains(err.Error(), "etcd:"+prefix+"param-flow.json:1: [0].paramIdx") {
		t.Errorf("LastError() = %v, want it at the param-flow key's count", err)
	}
	if !rules.Current().Equal(good) {
		t.Errorf("rules changed by a rejected update: %+v, want %+v", rules.Current(), good)
	}
}
