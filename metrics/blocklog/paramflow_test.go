package blocklog

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestTickLogsParamFlowBlocks checks that calls refused by a hot-parameter
// rule are logged under the param-flow kind and their rule, summed over the
// refused values.
func TestTickLogsParamFlowBlocks(t *testing.T) {
	clock := runtime.NewManualClock(1000 * time.Second)
	runtime.SetClock(clock)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	res := runtime.NewResource(t.Name() + "/detail")
	rule := runtime.ParamFlowRule{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 2}
	if err := runtime.LoadRules(runtime.Rules{ParamFlow: []runtime.ParamFlowRule{rule}}); err != nil {
		t.Fatal(err)
	}
	l, buf := newLogger(0)
	blocked := 0
	for _, v := range []string{"a", "a", "a", "a", "b", "b", "b"} {
		var e runtime.Entry
		if be := res.EntryArgsTo(&e, context.Background(), []runtime.ParamArg{runtime.StringArg(v)}); be != nil {
			blocked++
			continue
		}
		e.Exit()
	}
	if blocked != 3 {
		t.Fatalf("%d blocks, want 3 (a twice, b once)", blocked)
	}
	l.Tick(wall)
	recs := buf.records(t)
	if len(recs) != 1 {
		t.Fatalf("got %d records, want 1: %v", len(recs), recs)
	}
	rec := recs[0]
	if rec["resource"] != res.Name() || rec["blocked"] != 3.0 {
		t.Errorf("record %v, want resource %s blocked 3", rec, res.Name())
	}
	if types, _ := rec["types"].(map[string]any); len(types) != 1 || types["param-flow"] != 3.0 {
		t.Errorf("types %v, want param-flow 3", rec["types"])
	}
	text := "param-flow rule #0 (param 0, QPS 2 per 1s)"
	if rules, _ := rec["rules"].(map[string]any); len(rules) != 1 || rules[text] != 3.0 {
		t.Errorf("rules %v, want %q: 3", rec["rules"], text)
	}
}
