package nacos

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Watcher.Persist against Nacos: a flow rule changed through the runtime
// API is published to the flow dataId of a watcher that owns flow rules,
// and comes back through the subscription; a degrade rule changed the same
// way is not written, the watcher not owning that kind.
func TestPersistPublishesRuntimeChanges(t *testing.T) {
	addr := needServer(t)
	st.ResetRules(t)
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	publish(t, addr, flow, `[{"resource":"nacosPersist","grade":1,"count":5}]`)
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, flow) != "" })
	w := st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithKinds(rules.KindFlow),
		datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	stop, err := w.Persist(datasource.WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "nacosPersist", Grade: runtime.FlowGradeQPS, Count: 9}}); err != nil {
		t.Fatal(err)
	}
	if err := runtime.LoadDegradeRules([]runtime.DegradeRule{{Resource: "nacosPersist", Grade: runtime.DegradeErrorCount,
		Count: 3, TimeWindowSec: 5}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the flow change is published", func() bool {
		return slices.Equal(st.FlowCounts(parseFlow(t, stored(t, addr, flow))), []float64{9})
	})
	waitUntil(t, "the published change comes back to the watcher", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{9})
	})
	if got := stored(t, addr, degrade); got != "" {
		t.Errorf("degrade dataId holds %q, want nothing: the watcher owns flow rules only", got)
	}
	if got := st.RuntimeCount(t, "nacosPersist"); got != 9 {
		t.Errorf("runtime flow count %v, want 9", got)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

// Watcher.Writer against Nacos, as the dashboard's push handler uses it:
// the flow rules of a set are published, its degrade rules (a kind the
// watcher does not own) are not.
func TestWriterPublishesOnlyOwnedKinds(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	flow, degrade := app+"-flow-rules", app+"-degrade-rules"
	publish(t, addr, flow, flowJSON("5"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, flow) != "" })
	st.ResetRules(t)
	w := st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithKinds(rules.KindFlow),
		datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	writer, err := w.Writer()
	if err != nil {
		t.Fatal(err)
	}
	set := parseFlow(t, flowJSON("11"))
	set.Degrade = []runtime.DegradeRule{{Resource: "createOrder", Grade: runtime.DegradeErrorCount, Count: 3, TimeWindowSec: 5}}
	if err := writer.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	// A read straight after a publish may still serve the content before.
	waitUntil(t, "the flow dataId holds count 11", func() bool { return strings.Contains(stored(t, addr, flow), `"count": 11`) })
	if got := stored(t, addr, degrade); got != "" {
		t.Errorf("degrade dataId holds %q, want nothing: the watcher owns flow rules only", got)
	}
}
