package redis

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

func TestDefaultKeysAndChannels(t *testing.T) {
	src, err := NewSource(Config{Addr: "127.0.0.1:6379", App: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[rules.Kind]string{
		rules.KindFlow: "orders-flow-rules", rules.KindDegrade: "orders-degrade-rules",
		rules.KindParamFlow: "orders-param-rules", rules.KindSystem: "orders-system-rules",
		rules.KindAuthority: "orders-authority-rules", rules.KindGatewayFlow: "orders-gw-flow-rules",
		rules.KindAPIGroup: "orders-gw-api-group-rules",
	}
	for kind, key := range want {
		if got := src.Key(kind); got != key {
			t.Errorf("Key(%s) = %q, want %q", kind, got, key)
		}
		if got := src.Channel(kind); got != key+"-channel" {
			t.Errorf("Channel(%s) = %q, want %q", kind, got, key+"-channel")
		}
	}
	custom, err := NewSource(Config{Addr: "127.0.0.1:6379", Kinds: []rules.Kind{rules.KindFlow},
		Keys: map[rules.Kind]string{rules.KindFlow: "sentinel.rules.flow.ruleKey"}, Channels: map[rules.Kind]string{rules.KindFlow: "sentinel.rules.flow.channel"}})
	if err != nil {
		t.Fatal(err)
	}
	if custom.Key(rules.KindFlow) != "sentinel.rules.flow.ruleKey" || custom.Channel(rules.KindFlow) != "sentinel.rules.flow.channel" || custom.Key(rules.KindDegrade) != "" {
		t.Errorf("overridden names: key %q channel %q", custom.Key(rules.KindFlow), custom.Channel(rules.KindFlow))
	}
	if _, err := NewSource(Config{Addr: "127.0.0.1:6379"}); err == nil {
		t.Error("NewSource without App or Keys succeeded")
	}
}

func TestInitialReadOfSeveralKinds(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	set := func(kind, content string) {
		publish(t, c, app+"-"+kind+"-rules", app+"-"+kind+"-rules-channel", content)
	}
	set("flow", flowJSON("5"))
	set("degrade", `[{"resource":"createOrder","grade":0,"count":200,"timeWindow":10,"minRequestAmount":5,"slowRatioThreshold":0.5,"statIntervalMs":1000}]`)
	set("authority", `[{"resource":"createOrder","limitApp":"crawler","strategy":1}]`)
	set("system", `[{"highestSystemLoad":8}]`)
	set("gw-api-group", `[{"apiName":"orders-api","predicateItems":[{"pattern":"/orders/**","matchStrategy":1}]}]`)
	set("gw-flow", `[{"resource":"orders-api","resourceMode":1,"grade":1,"count":5}]`)

	_, applied := watch(t, newTestSource(t, nil))
	got, n := applied.Last()
	if n != 1 || len(got.Flow) != 1 || len(got.Degrade) != 1 || len(got.Authority) != 1 || len(got.System) != 1 {
		t.Fatalf("first push %+v (%d applied), want one rule of each of the six kinds", got, n)
	}
	if got.Flow[0].Count != 5 || got.Degrade[0].Count != 200 || got.Authority[0].LimitApp != "crawler" {
		t.Errorf("read %+v", got)
	}
	if len(got.GatewayFlow) != 1 || len(got.APIGroups) != 1 {
		t.Errorf("gateway rules %+v and API groups %+v, want one of each", got.GatewayFlow, got.APIGroups)
	}
	if len(got.ParamFlow) != 0 {
		t.Errorf("a kind with no key holds rules: %+v", got.ParamFlow)
	}
}

func TestPublishReachesTheRuntime(t *testing.T) {
	c := admin(t)
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, `[{"resource":"redisE2E","grade":1,"count":5}]`)
	w := st.StartWatcher(t, newTestSource(t, nil), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	if got := st.RuntimeCount(t, "redisE2E"); got != 5 {
		t.Fatalf("runtime flow count %v after start, want 5", got)
	}
	publish(t, c, key, ch, `[{"resource":"redisE2E","grade":1,"count":7}]`)
	waitUntil(t, "the publish is in force", func() bool { return st.RuntimeCount(t, "redisE2E") == 7 })
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestMessageMakesTheKeyReadAgain(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, flowJSON("10"))
	_, applied := watch(t, newTestSource(t, nil))

	// A writer that announces something other than the rules: the key is
	// what a restart would load, so the key is applied.
	if err := c.Set(context.Background(), key, flowJSON("40"), 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Publish(context.Background(), ch, "changed").Err(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the key's rules are applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{40})
	})
}

func TestBrokenJSONKeepsTheLastGoodRules(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, flowJSON("10"))
	w, applied := watch(t, newTestSource(t, nil))

	publish(t, c, key, ch, `[{"resource":"createOrder","count":`)
	waitUntil(t, "the broken publish is rejected", func() bool { return w.Rejected() >= 1 })
	if err := w.LastError(); err == nil || !strings.Contains(err.Error(), "redis:"+key) {
		t.Errorf("LastError() = %v, want it to name the key %s", err, key)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("flow counts %v after the broken publish, want the last good [10]", got)
	}
	publish(t, c, key, ch, flowJSON("30"))
	waitUntil(t, "the fixed publish is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
}

func TestDeletedKeys(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	publish(t, c, flow, flow+"-channel", flowJSON("10"))
	publish(t, c, degrade, degrade+"-channel", `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`)
	w, applied := watch(t, newTestSource(t, nil))
	if s, _ := applied.Last(); len(s.Flow) != 1 || len(s.Degrade) != 1 {
		t.Fatalf("first set %+v, want one flow and one degrade rule", s)
	}
	remove := func(key string) {
		t.Helper()
		ctx := context.Background()
		if err := c.Del(ctx, key).Err(); err != nil {
			t.Fatal(err)
		}
		if err := c.Publish(ctx, key+"-channel", "").Err(); err != nil {
			t.Fatal(err)
		}
	}

	// One kind's key deleted: no rules of that kind, the others stay.
	remove(flow)
	waitUntil(t, "the flow rules are lifted", func() bool {
		s, _ := applied.Last()
		return len(s.Flow) == 0 && len(s.Degrade) == 1
	})

	// Every key deleted: gone, the last good rules stay in force.
	remove(degrade)
	waitUntil(t, "the loss is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
	if s := w.Property().Get(); len(s.Degrade) != 1 {
		t.Errorf("rules in force %+v after every key is gone, want the last good degrade rule", s)
	}
	if err := w.LastError(); !strings.Contains(err.Error(), degrade) {
		t.Errorf("LastError() = %v, want it to name the keys", err)
	}
}

func TestStartFailsFastWhenRedisIsDown(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(Config{Addr: "127.0.0.1:" + itoa(port), App: "orders", Timeout: 500 * time.Millisecond, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := datasource.Watch(ctx, src, datasource.WithLogger(testLogger(t)))
	if err == nil {
		<-w.Done()
		t.Fatal("Watch started with Redis down")
	}
	if !strings.Contains(err.Error(), "orders-flow-rules") {
		t.Errorf("error %v, want it to name the key", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Watch took %v to fail", d)
	}
}

func TestBurstOfPublishesLastOneWins(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, flowJSON("1"))
	w, _ := watch(t, newTestSource(t, nil))
	for i := 2; i <= 100; i++ {
		publish(t, c, key, ch, flowJSON(itoa(i)))
	}
	waitUntil(t, "the last publish is in force", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{100})
	})
	// Nothing arrives after the last one to undo it.
	time.Sleep(200 * time.Millisecond)
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{100}) {
		t.Errorf("flow counts %v after the burst settled, want [100]", got)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestKeyspaceEventsFollowWritersThatDoNotPublish(t *testing.T) {
	c := admin(t)
	ctx := context.Background()
	if err := c.ConfigSet(ctx, "notify-keyspace-events", "K$g").Err(); err != nil {
		t.Fatalf("CONFIG SET notify-keyspace-events: %v", err)
	}
	t.Cleanup(func() { _ = c.ConfigSet(context.Background(), "notify-keyspace-events", "").Err() })
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	publish(t, c, flow, flow+"-channel", flowJSON("10"))
	publish(t, c, degrade, degrade+"-channel", `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`)
	_, applied := watch(t, newTestSource(t, func(cfg *Config) { cfg.KeyspaceEvents = true }))
	waitSubscribed(t, c, flow+"-channel")
	// Let the full read that follows the subscription end first, so the
	// SET below can only reach the source as an event.
	time.Sleep(100 * time.Millisecond)

	// A plain SET, announced on no rules channel.
	if err := c.Set(ctx, flow, flowJSON("11"), 0).Err(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the SET is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{11})
	})
	// A plain DEL.
	if err := c.Del(ctx, degrade).Err(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the DEL is applied", func() bool {
		s, _ := applied.Last()
		return len(s.Degrade) == 0 && len(s.Flow) == 1
	})
}

func TestKeyOfAnotherTypeKeepsTheLastGoodRules(t *testing.T) {
	c := admin(t)
	ctx := context.Background()
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, flowJSON("10"))
	w, _ := watch(t, newTestSource(t, nil))

	// A hash where the rules were: not "no rules", an error naming the key.
	if err := c.Del(ctx, key).Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.HSet(ctx, key, "count", "20").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Publish(ctx, ch, "changed").Err(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the key is reported", func() bool { return w.LastError() != nil })
	if err := w.LastError(); !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "WRONGTYPE") {
		t.Errorf("LastError() = %v, want WRONGTYPE naming %s", err, key)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("flow counts %v, want the last good [10]", got)
	}
	publish(t, c, key, ch, flowJSON("30")) // SET replaces the hash
	waitUntil(t, "the fixed key is applied", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{30}) && w.LastError() == nil
	})
}
