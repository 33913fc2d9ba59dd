package redis

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// parseFlow reads a flow document as Sentinel's JSON.
func parseFlow(t *testing.T, data string) rules.Set {
	t.Helper()
	s, err := rules.Parse(rules.Document{Name: "flow", Data: []byte(data), Format: rules.FormatJSON, Kind: rules.KindFlow})
	if err != nil {
		t.Fatalf("parse %q: %v", data, err)
	}
	return s
}

func TestWriteSetsAndPublishesOnlyTheKindsThatDiffer(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	degradeJSON := `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`
	publish(t, c, flow, flow+"-channel", flowJSON("10"))
	publish(t, c, degrade, degrade+"-channel", degradeJSON)
	src := newTestSource(t, nil)
	w, _ := watch(t, src)

	// A subscriber of the channel gets the rules in the message, as Java's
	// RedisDataSource expects.
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	sub := c.Subscribe(ctx, flow+"-channel", degrade+"-channel")
	defer sub.Close()
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.Receive(ctx); err != nil {
		t.Fatal(err)
	}

	set := w.Property().Get()
	set.Flow = parseFlow(t, flowJSON("20")).Flow
	if err := src.Write(ctx, set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	msg, err := sub.ReceiveMessage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Channel != flow+"-channel" || msg.Payload != stored(t, c, flow) || !parseFlow(t, msg.Payload).Equal(parseFlow(t, flowJSON("20"))) {
		t.Errorf("message %q on %s, want the flow key's new content %q", msg.Payload, msg.Channel, stored(t, c, flow))
	}
	if got := stored(t, c, degrade); got != degradeJSON {
		t.Errorf("degrade key rewritten to %q, want it untouched (%q)", got, degradeJSON)
	}
	waitUntil(t, "the write comes back through the watch", func() bool {
		c := st.FlowCounts(w.Property().Get())
		return len(c) == 1 && c[0] == 20
	})
}

func TestWriteCompareAndSwapWithTwoWriters(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", flowJSON("10"))

	// Two writers read the same content; neither watches, so nothing
	// refreshes what they read.
	first := newTestSource(t, func(cfg *Config) { cfg.Kinds = []rules.Kind{rules.KindFlow} })
	second := newTestSource(t, func(cfg *Config) { cfg.Kinds = []rules.Kind{rules.KindFlow}; cfg.ConflictRetries = -1 })
	ctx := context.Background()
	for _, src := range []*Source{first, second} {
		got, err := src.readKeys(ctx, []string{key})
		if err != nil {
			t.Fatal(err)
		}
		src.base[key] = got[key]
	}

	if err := first.Write(ctx, parseFlow(t, flowJSON("20"))); err != nil {
		t.Fatalf("first Write: %v", err)
	}
	// The second writer's base is stale: without retries the conflict is
	// reported and nothing is written.
	err := second.Write(ctx, parseFlow(t, flowJSON("30")))
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), key) {
		t.Fatalf("stale Write = %v, want ErrConflict naming %s", err, key)
	}
	if got := parseFlow(t, stored(t, c, key)); !got.Equal(parseFlow(t, flowJSON("20"))) {
		t.Fatalf("stored %+v after the refused write, want the first writer's rules", got.Flow)
	}

	// With retries it writes again on the fresh content.
	second.cfg.ConflictRetries = 3
	second.base[key] = flowJSON("10")
	if err := second.Write(ctx, parseFlow(t, flowJSON("30"))); err != nil {
		t.Fatalf("Write with retries: %v", err)
	}
	if got := parseFlow(t, stored(t, c, key)); !got.Equal(parseFlow(t, flowJSON("30"))) {
		t.Fatalf("stored %+v after the retried write, want the second writer's rules", got.Flow)
	}
	// And the first writer, now stale in turn, notices too.
	first.cfg.ConflictRetries = -1
	if err := first.Write(ctx, parseFlow(t, flowJSON("40"))); !errors.Is(err, ErrConflict) {
		t.Fatalf("first writer's stale Write = %v, want ErrConflict", err)
	}
}

// TestWriteRefusedByWatchedKeyChange has another writer change the key
// after Write compared it and before its EXEC: Redis refuses the EXEC
// (WATCH), and Write reports the conflict or writes again on the fresh
// content.
func TestWriteRefusedByWatchedKeyChange(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", flowJSON("10"))
	rec := &st.LogRecorder{}
	src := newTestSource(t, func(cfg *Config) {
		cfg.Kinds = []rules.Kind{rules.KindFlow}
		cfg.ConflictRetries = -1
		cfg.Logger = rec.Logger()
	})
	ctx := context.Background()
	other := 0
	src.beforeExec = func() {
		other++
		publish(t, c, key, key+"-channel", flowJSON(itoa(100+other)))
	}
	err := src.Write(ctx, parseFlow(t, flowJSON("20")))
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("Write = %v, want ErrConflict", err)
	}
	if got := parseFlow(t, stored(t, c, key)); !got.Equal(parseFlow(t, flowJSON("101"))) {
		t.Fatalf("stored %+v, want the other writer's rules", got.Flow)
	}

	// Retried: the other writer changes it once more, then leaves it.
	src.cfg.ConflictRetries = 3
	src.beforeExec = func() {
		if other < 2 {
			other++
			publish(t, c, key, key+"-channel", flowJSON(itoa(100+other)))
		}
	}
	if err := src.Write(ctx, parseFlow(t, flowJSON("20"))); err != nil {
		t.Fatalf("Write with retries: %v", err)
	}
	if got := parseFlow(t, stored(t, c, key)); !got.Equal(parseFlow(t, flowJSON("20"))) {
		t.Fatalf("stored %+v, want the retried write", got.Flow)
	}
	if n := len(rec.Records(t, "WARN")); n != 1 {
		t.Errorf("%d conflict warnings, want 1 (the retried EXEC)", n)
	}
}

// Source is what datasource.Watch reads and Persist writes.
var _ datasource.WritableSource = (*Source)(nil)

func TestPersistWritesRuntimeChangesBackToRedis(t *testing.T) {
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", `[{"resource":"redisPersist","grade":1,"count":5}]`)
	src := newTestSource(t, nil)
	w := st.StartWatcher(t, src, datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	stop, err := w.Persist(datasource.WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "redisPersist", Grade: runtime.FlowGradeQPS, Count: 9}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the change is in Redis", func() bool {
		s := stored(t, c, key)
		return s != "" && slices.Equal(st.FlowCounts(parseFlow(t, s)), []float64{9})
	})
	waitUntil(t, "the watch has read the write back", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{9})
	})
	if got := st.RuntimeCount(t, "redisPersist"); got != 9 {
		t.Errorf("runtime count %v after the write-back, want 9", got)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}
