package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource/file"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// javaFlowRule is the dashboard's view of a flow rule (FlowRuleEntity),
// filled from getRules by fastjson: by property name, unknown ones ignored.
type javaFlowRule struct {
	Resource          string  `json:"resource"`
	LimitApp          string  `json:"limitApp"`
	Grade             int     `json:"grade"`
	Count             float64 `json:"count"`
	Strategy          int     `json:"strategy"`
	RefResource       *string `json:"refResource"`
	ControlBehavior   int     `json:"controlBehavior"`
	WarmUpPeriodSec   int     `json:"warmUpPeriodSec"`
	MaxQueueingTimeMs int     `json:"maxQueueingTimeMs"`
	ClusterMode       bool    `json:"clusterMode"`
	ClusterConfig     *struct {
		FlowID int64 `json:"flowId"`
	} `json:"clusterConfig"`
}

// pushFlowBody is what the dashboard's FlowRuleEntity.toRule list looks like
// through fastjson: Java's properties only, keys sorted.
const pushFlowBody = `[{"clusterMode":false,"controlBehavior":0,"count":20.0,"grade":1,"limitApp":"default","maxQueueingTimeMs":500,"resource":"%s","strategy":0,"warmUpPeriodSec":10},` +
	`{"clusterMode":false,"controlBehavior":0,"count":7.0,"grade":1,"limitApp":"default","maxQueueingTimeMs":500,"resource":"%s","strategy":0,"warmUpPeriodSec":10}]`

type recordingWriter struct {
	mu   sync.Mutex
	sets []rules.Set
	err  error
}

func (w *recordingWriter) Write(_ context.Context, s rules.Set) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.sets = append(w.sets, s)
	return nil
}

func TestGetRulesAsJavaBeans(t *testing.T) {
	f := newFixture(t, Config{})
	name := t.Name()
	if err := runtime.LoadRules(runtime.Rules{
		Flow:    []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 10, StatIntervalMs: 2000}},
		Degrade: []runtime.DegradeRule{{Resource: name, Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10}},
	}); err != nil {
		t.Fatal(err)
	}
	code, body := f.get("getRules", url.Values{"type": {"flow"}})
	var flow []javaFlowRule
	decodeJSON(t, body, &flow)
	if code != 200 || len(flow) != 1 || flow[0].Resource != name || flow[0].Count != 10 || flow[0].Grade != 1 ||
		flow[0].LimitApp != "default" || flow[0].WarmUpPeriodSec != 10 || flow[0].MaxQueueingTimeMs != 500 || flow[0].RefResource != nil {
		t.Fatalf("getRules flow = %d %s", code, body)
	}
	if !strings.Contains(body, `"count":10.0`) {
		t.Errorf("count not written as a Java double: %s", body)
	}
	_, body = f.get("getRules", url.Values{"type": {"degrade"}})
	var deg []map[string]any
	decodeJSON(t, body, &deg)
	want := map[string]any{"resource": name, "limitApp": "default", "grade": 1.0, "count": 0.5, "timeWindow": 10.0,
		"minRequestAmount": 5.0, "slowRatioThreshold": 0.0, "statIntervalMs": 1000.0, "regex": false}
	if len(deg) != 1 || !reflect.DeepEqual(deg[0], want) {
		t.Errorf("getRules degrade = %v, want %v", deg, want)
	}
	for _, kind := range []string{"system", "authority"} {
		if code, body := f.get("getRules", url.Values{"type": {kind}}); code != 200 || body != "[]" {
			t.Errorf("getRules %s = %d %s", kind, code, body)
		}
	}
	if code, body := f.get("getRules", url.Values{"type": {"gateway"}}); code != http.StatusBadRequest || body != "invalid type" {
		t.Errorf("getRules gateway = %d %q", code, body)
	}
	if code, body := f.get("getParamFlowRules", nil); code != 200 || body != "[]" {
		t.Errorf("getParamFlowRules = %d %s", code, body)
	}
}

// One edit in the dashboard pushes the machine's whole list, rebuilt from
// Java's properties: the rule it did not change keeps the fields only the
// runtime has, and the degrade rules stay as they are.
func TestSetRulesKeepsFieldsTheDashboardDrops(t *testing.T) {
	w := &recordingWriter{}
	f := newFixture(t, Config{Writer: w})
	a, b := t.Name()+"/a", t.Name()+"/b"
	keep := runtime.FlowRule{Resource: a, Grade: runtime.FlowGradeQPS, Count: 20, StatIntervalMs: 2000, ColdFactor: 5}
	deg := runtime.DegradeRule{Resource: b, Grade: runtime.DegradeErrorCount, Count: 3, TimeWindowSec: 5}
	if err := runtime.LoadRules(runtime.Rules{
		Flow:    []runtime.FlowRule{keep, {Resource: b, Grade: runtime.FlowGradeQPS, Count: 5, StatIntervalMs: 500}},
		Degrade: []runtime.DegradeRule{deg},
	}); err != nil {
		t.Fatal(err)
	}
	// The user changed b's count from 5 to 7.
	data := fmt.Sprintf(pushFlowBody, a, b)
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}})
	if code != 200 || body != "success" {
		t.Fatalf("setRules = %d %q", code, body)
	}
	flow := runtime.FlowRules()
	if len(flow) != 2 || flow[0] != keep {
		t.Fatalf("flow rules in force %+v: want a's rule kept whole (%+v)", flow, keep)
	}
	if flow[1].Resource != b || flow[1].Count != 7 || flow[1].StatIntervalMs != 0 {
		t.Errorf("b's edited rule = %+v", flow[1])
	}
	if d := runtime.DegradeRules(); len(d) != 1 || d[0] != deg {
		t.Errorf("degrade rules %+v changed by a flow push", d)
	}
	if len(w.sets) != 1 || !reflect.DeepEqual(w.sets[0].Flow, flow) || len(w.sets[0].Degrade) != 1 {
		t.Errorf("writer got %+v", w.sets)
	}
}

func TestSetRulesValidateThenSwap(t *testing.T) {
	f := newFixture(t, Config{})
	before := []runtime.FlowRule{{Resource: t.Name(), Grade: runtime.FlowGradeQPS, Count: 3}}
	if err := runtime.LoadFlowRules(before); err != nil {
		t.Fatal(err)
	}
	bad := `[{"resource":"` + t.Name() + `","grade":1,"count":-1}]`
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {bad}})
	if code != http.StatusBadRequest || !strings.Contains(body, "dashboard:flow") || strings.Contains(body, "success") {
		t.Errorf("invalid push = %d %q, want 400 naming the document", code, body)
	}
	if got := runtime.FlowRules(); !reflect.DeepEqual(got, before) {
		t.Errorf("rules after a refused push = %+v", got)
	}
	for _, data := range []string{"", "{", "[1]"} {
		if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}}); code != http.StatusBadRequest {
			t.Errorf("push %q = %d %q", data, code, body)
		}
	}
	if code, body := f.post("setRules", url.Values{"type": {"bogus"}, "data": {"[]"}}); code != 400 || body != "invalid type" {
		t.Errorf("type bogus = %d %q", code, body)
	}
	// Each kind replaces only itself; invalid rules of any kind are refused.
	sys := `[{"highestSystemLoad":-1.0,"highestCpuUsage":-1.0,"qps":100.0,"avgRt":-1,"maxThread":-1}]`
	if code, body := f.post("setRules", url.Values{"type": {"system"}, "data": {sys}}); code != 200 || body != "success" {
		t.Errorf("system push = %d %q", code, body)
	}
	auth := `[{"resource":"` + t.Name() + `","limitApp":"appA","strategy":1}]`
	if code, body := f.post("setRules", url.Values{"type": {"authority"}, "data": {auth}}); code != 200 || body != "success" {
		t.Errorf("authority push = %d %q", code, body)
	}
	param := `[{"resource":"` + t.Name() + `","paramIdx":0,"count":5.0,"grade":1,"durationInSec":1,"paramFlowItemList":[{"object":"sku-1","classType":"String","count":9}]}]`
	if code, body := f.post("setParamFlowRules", url.Values{"data": {param}}); code != 200 || body != "success" {
		t.Errorf("param push = %d %q", code, body)
	}
	in := currentRules()
	if !reflect.DeepEqual(in.Flow, before) || len(in.System) != 1 || in.System[0].QPS != 100 || len(in.Authority) != 1 ||
		in.Authority[0].Strategy != runtime.AuthorityBlack || len(in.ParamFlow) != 1 || in.ParamFlow[0].Items[0].Count != 9 {
		t.Errorf("rules in force after pushes of each kind: %+v", in)
	}
	for _, bad := range []url.Values{
		{"type": {"authority"}, "data": {`[{"limitApp":"appA"}]`}},
		{"type": {"system"}, "data": {`{"qps":1}`}},
	} {
		if code, body := f.post("setRules", bad); code != http.StatusBadRequest {
			t.Errorf("push %v = %d %q", bad, code, body)
		}
	}
	for _, data := range []string{`[{"resource":"r","count":5.0}]`, `[{"resource":"r","paramIdx":0,"count":-5.0}]`} {
		if code, body := f.post("setParamFlowRules", url.Values{"data": {data}}); code != http.StatusBadRequest {
			t.Errorf("param push %s = %d %q", data, code, body)
		}
	}
	if after := currentRules(); !reflect.DeepEqual(after, in) {
		t.Errorf("refused pushes changed the rules: %+v", after)
	}
	// A flow push leaves the other kinds as they are.
	if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {`[{"resource":"` + t.Name() + `","grade":1,"count":3.0}]`}}); code != 200 {
		t.Fatalf("flow push = %d %q", code, body)
	}
	if after := currentRules(); !reflect.DeepEqual(after.System, in.System) || !reflect.DeepEqual(after.Authority, in.Authority) ||
		!reflect.DeepEqual(after.ParamFlow, in.ParamFlow) {
		t.Errorf("a flow push changed the other kinds: %+v", after)
	}
	// An empty list is a real push: the last rule deleted.
	if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {"[]"}}); code != 200 || body != "success" {
		t.Errorf("empty push = %d %q", code, body)
	}
	if got := runtime.FlowRules(); len(got) != 0 {
		t.Errorf("rules after deleting all = %+v", got)
	}
}

func TestSetRulesReadOnly(t *testing.T) {
	f := newFixture(t, Config{ReadOnly: true})
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {`[{"resource":"x","grade":1,"count":1.0}]`}})
	if code/100 == 2 || !strings.Contains(body, "read-only") {
		t.Errorf("read-only push = %d %q", code, body)
	}
	if code, _ := f.post("setParamFlowRules", url.Values{"data": {"[]"}}); code/100 == 2 {
		t.Errorf("read-only param push = %d", code)
	}
	if len(runtime.FlowRules()) != 0 {
		t.Errorf("read-only push changed the rules: %+v", runtime.FlowRules())
	}
	// Reading still works.
	if code, _ := f.get("getRules", url.Values{"type": {"flow"}}); code != 200 {
		t.Errorf("getRules in read-only mode = %d", code)
	}
}

// A push the writer cannot store is refused and taken back: it would
// otherwise hold on this machine only, silently for the dashboard pages
// that ignore the answer.
func TestSetRulesWriteFailureIsRefused(t *testing.T) {
	w := &recordingWriter{err: errors.New("disk full")}
	f := newFixture(t, Config{Writer: w})
	before := runtime.FlowRule{Resource: t.Name(), Grade: runtime.FlowGradeQPS, Count: 1, StatIntervalMs: 2000}
	if err := runtime.LoadFlowRules([]runtime.FlowRule{before}); err != nil {
		t.Fatal(err)
	}
	inForce := runtime.FlowRules()
	data := `[{"resource":"` + t.Name() + `","grade":1,"count":2.0}]`
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}})
	if code/100 == 2 || !strings.Contains(body, "disk full") || !strings.Contains(body, "not applied") {
		t.Errorf("push with a failing writer = %d %q, want a refusal with the writer's error", code, body)
	}
	if got := runtime.FlowRules(); len(got) != 1 || got[0] != inForce[0] || got[0].Count != 1 {
		t.Errorf("rules in force = %+v, want the rule before the push", got)
	}
	if r := f.srv.Refusals(); r.Count != 1 || !strings.Contains(r.Last.Reason, "disk full") {
		t.Errorf("Refusals = %+v, want the failed write counted", r)
	}
}

// Java's handlers decode data a second time; the dashboard encodes it once,
// so a '+' or '%' in a resource name must survive.
func TestSetRulesDecodesOnce(t *testing.T) {
	f := newFixture(t, Config{})
	name := t.Name() + "/a+b%20c"
	data := `[{"resource":"` + name + `","grade":1,"count":2.0}]`
	if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {data}}); code != 200 {
		t.Fatalf("push = %d %q", code, body)
	}
	if got := runtime.FlowRules(); len(got) != 1 || got[0].Resource != name {
		t.Errorf("rules = %+v, want resource %q", got, name)
	}
}

// A push of every kind is persisted: the rules file the writer keeps holds
// every kind in force after each push, and reads back as those rules.
func TestSetRulesPersistEveryKind(t *testing.T) {
	for _, ext := range []string{"toml", "json"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rules."+ext)
			f := newFixture(t, Config{Writer: file.New(path)})
			name := t.Name()
			pushes := []struct {
				cmd  string
				p    url.Values
				kind rules.Kind
			}{
				{"setRules", url.Values{"type": {"flow"}, "data": {`[{"resource":"` + name + `","grade":1,"count":4.0}]`}}, rules.KindFlow},
				{"setRules", url.Values{"type": {"degrade"}, "data": {`[{"resource":"` + name + `","grade":2,"count":3.0,"timeWindow":5}]`}}, rules.KindDegrade},
				{"setRules", url.Values{"type": {"system"}, "data": {`[{"highestSystemLoad":-1.0,"highestCpuUsage":-1.0,"qps":100.0,"avgRt":-1,"maxThread":-1}]`}}, rules.KindSystem},
				{"setRules", url.Values{"type": {"authority"}, "data": {`[{"resource":"` + name + `","limitApp":"appA","strategy":1}]`}}, rules.KindAuthority},
				{"setParamFlowRules", url.Values{"data": {`[{"resource":"` + name + `","paramIdx":0,"count":5.0,"grade":1,"durationInSec":2,"paramFlowItemList":[{"object":"sku-1","classType":"String","count":9}]}]`}}, rules.KindParamFlow},
			}
			for i, p := range pushes {
				if code, body := f.post(p.cmd, p.p); code != 200 || body != "success" {
					t.Fatalf("push %s = %d %q", p.kind, code, body)
				}
				stored, err := rules.Load(path)
				if err != nil {
					t.Fatalf("after the %s push the file does not read: %v", p.kind, err)
				}
				in := rules.Current()
				if !stored.Equal(in) {
					t.Fatalf("after the %s push the file holds %+v, in force %+v", p.kind, stored, in)
				}
				// Every kind pushed so far is in the file.
				for _, q := range pushes[:i+1] {
					if stored.Only(q.kind).IsEmpty() {
						t.Errorf("after the %s push the file lacks the %s rules", p.kind, q.kind)
					}
				}
			}
			stored, _ := rules.Load(path)
			if len(stored.ParamFlow) != 1 || stored.ParamFlow[0].DurationInSec != 2 || stored.ParamFlow[0].Items[0].Count != 9 ||
				len(stored.Authority) != 1 || stored.Authority[0].Strategy != runtime.AuthorityBlack || stored.System[0].QPS != 100 {
				t.Errorf("file holds %+v", stored)
			}
		})
	}
}

// A push whose data is not an array is refused, as Java's parseArray
// refuses it: an object naming several kinds must not change kinds the
// push does not name.
func TestSetRulesWantsAnArray(t *testing.T) {
	f := newFixture(t, Config{})
	obj := `{"flow":[{"resource":"` + t.Name() + `","grade":1,"count":1.0}],"system":[{"qps":5.0}]}`
	code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {obj}})
	if code != http.StatusBadRequest || !strings.Contains(body, "JSON array") {
		t.Errorf("object push = %d %q", code, body)
	}
	if in := currentRules(); len(in.Flow)+len(in.System) != 0 {
		t.Errorf("refused push changed the rules: %+v", in)
	}
}
