package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// manyFlowRules is n distinct QPS rules carrying a field the dashboard
// drops (StatIntervalMs), as a rules file would load them.
func manyFlowRules(n int) []runtime.FlowRule {
	out := make([]runtime.FlowRule, n)
	for i := range out {
		out[i] = runtime.FlowRule{Resource: fmt.Sprintf("res-%06d", i), Grade: runtime.FlowGradeQPS, Count: float64(i%97 + 1), StatIntervalMs: 2000}
	}
	return out
}

// asPushed is what the dashboard sends back for in: the same rules without
// the fields it drops.
func asPushed(in []runtime.FlowRule) []runtime.FlowRule {
	out := make([]runtime.FlowRule, len(in))
	for i, r := range in {
		r.StatIntervalMs, r.ColdFactor = 0, 0
		out[i] = r
	}
	return out
}

// Each rule in force stands for one pushed rule at most, the first of its
// view not yet taken, whatever the order of the push.
func TestKeepDroppedFieldsMatchesEachRuleOnce(t *testing.T) {
	a1 := runtime.FlowRule{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 5, StatIntervalMs: 2000}
	a2 := runtime.FlowRule{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 5, StatIntervalMs: 500}
	b := runtime.FlowRule{Resource: "b", Grade: runtime.FlowGradeQPS, Count: 1, ColdFactor: 4}
	inForce := []runtime.FlowRule{a1, b, a2}
	pa := runtime.FlowRule{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 5}
	pb := runtime.FlowRule{Resource: "b", Grade: runtime.FlowGradeQPS, Count: 1}
	pc := runtime.FlowRule{Resource: "c", Grade: runtime.FlowGradeQPS, Count: 1}
	got, kept, err := keepDroppedFields(context.Background(), []runtime.FlowRule{pa, pc, pa, pa, pb}, inForce)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.FlowRule{a1, pc, a2, pa, b}
	if !reflect.DeepEqual(got, want) || kept != 3 {
		t.Errorf("merge = %+v kept %d, want %+v kept 3", got, kept, want)
	}
}

func TestKeepDroppedFieldsStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := manyFlowRules(5000)
	if _, _, err := keepDroppedFields(ctx, asPushed(in), in); !errors.Is(err, context.Canceled) {
		t.Errorf("merge under a cancelled context = %v, want context.Canceled", err)
	}
}

// The merge is linear: 100k rules pushed on 100k in force. The figure is
// printed, and bounded far above it only so that a quadratic merge (which
// runs for minutes) fails.
func TestKeepDroppedFieldsLarge(t *testing.T) {
	const n = 100_000
	in := manyFlowRules(n)
	pushed := asPushed(in)
	start := time.Now()
	got, kept, err := keepDroppedFields(context.Background(), pushed, in)
	took := time.Since(start)
	t.Logf("merge of %d pushed rules on %d in force: %v", n, n, took)
	if err != nil || kept != n || !reflect.DeepEqual(got, in) {
		t.Fatalf("merge kept %d of %d (err %v)", kept, n, err)
	}
	if took > 20*time.Second {
		t.Errorf("merge of %d on %d took %v", n, n, took)
	}
}

// BenchmarkKeepDroppedFields merges 100k pushed rules on 100k in force.
func BenchmarkKeepDroppedFields(b *testing.B) {
	in := manyFlowRules(100_000)
	pushed := asPushed(in)
	for b.Loop() {
		if _, _, err := keepDroppedFields(context.Background(), pushed, in); err != nil {
			b.Fatal(err)
		}
	}
}

// flowPushJSON is the dashboard's push of rules: Java's properties only.
func flowPushJSON(rs []runtime.FlowRule) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, r := range rs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"clusterMode":false,"controlBehavior":0,"count":%g,"grade":1,"limitApp":"default","maxQueueingTimeMs":500,"resource":%q,"strategy":0,"warmUpPeriodSec":10}`, r.Count, r.Resource)
	}
	b.WriteByte(']')
	return b.String()
}

// A whole push of 20k flow rules on 20k in force, over HTTP: it keeps
// every rule's dropped field and its time is printed.
func TestSetRulesLargePush(t *testing.T) {
	const n = 20_000
	f := newFixture(t, Config{MaxPushRules: n, MaxBodyBytes: 64 << 20, WriteTimeout: 5 * time.Minute})
	in := manyFlowRules(n)
	if err := runtime.LoadFlowRules(in); err != nil {
		t.Fatal(err)
	}
	data := flowPushJSON(in)
	start := time.Now()
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}})
	took := time.Since(start)
	t.Logf("setRules of %d flow rules (%d bytes) on %d in force: %v", n, len(data), n, took)
	if code != 200 || body != "success" {
		t.Fatalf("setRules = %d %q", code, body)
	}
	got := runtime.FlowRules()
	if len(got) != n || got[0] != in[0] || got[n-1] != in[n-1] {
		t.Errorf("rules in force after the push: %d, first %+v", len(got), got[0])
	}
}

func TestSetRulesRefusesMoreThanMaxPushRules(t *testing.T) {
	f := newFixture(t, Config{MaxPushRules: 3})
	before := manyFlowRules(2)
	if err := runtime.LoadFlowRules(before); err != nil {
		t.Fatal(err)
	}
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {flowPushJSON(manyFlowRules(4))}})
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "4 rules in one push") || !strings.Contains(body, "MaxPushRules") {
		t.Errorf("push of 4 rules with MaxPushRules 3 = %d %q", code, body)
	}
	if got := runtime.FlowRules(); !reflect.DeepEqual(got, before) {
		t.Errorf("rules after a refused push = %+v", got)
	}
	if r := f.srv.Refusals(); r.Count != 1 || r.Last.Kind != "flow" || !strings.Contains(r.Last.Reason, "MaxPushRules") {
		t.Errorf("refusals = %+v", r)
	}
	if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {flowPushJSON(manyFlowRules(3))}}); code != 200 {
		t.Errorf("push of 3 rules = %d %q", code, body)
	}
}

// A push whose client went away while it waited for the push before it is
// not applied when its turn comes.
func TestPushOfAClientThatWentAwayIsNotApplied(t *testing.T) {
	f := newFixture(t, Config{})
	before := manyFlowRules(1)
	if err := runtime.LoadFlowRules(before); err != nil {
		t.Fatal(err)
	}
	f.srv.pushSem <- struct{}{} // a push in progress
	client := &http.Client{Timeout: 300 * time.Millisecond}
	resp, err := client.PostForm(f.base+"/setRules", url.Values{"type": {"flow"}, "data": {flowPushJSON(manyFlowRules(2))}})
	if err == nil {
		resp.Body.Close()
		t.Fatalf("push answered %d while another push held the turn", resp.StatusCode)
	}
	deadline := time.Now().Add(10 * time.Second)
	for f.srv.Refusals().Count == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	<-f.srv.pushSem
	if r := f.srv.Refusals(); r.Count != 1 || !strings.Contains(r.Last.Reason, "went away") {
		t.Errorf("refusals = %+v, want the abandoned push", r)
	}
	time.Sleep(100 * time.Millisecond)
	if got := runtime.FlowRules(); !reflect.DeepEqual(got, before) {
		t.Errorf("an abandoned push was applied: %+v", got)
	}
}
