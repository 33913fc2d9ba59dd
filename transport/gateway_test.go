package transport

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource/file"
	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// What the 1.8.9 dashboard pushes: fastjson of GatewayFlowRuleEntity.
// toGatewayFlowRule and ApiDefinitionEntity.toApiDefinition lists (Java
// properties, keys sorted, null ones left out).
const (
	pushGatewayAPIs = `[{"apiName":"orders-api","predicateItems":[{"matchStrategy":1,"pattern":"/orders/**"},{"matchStrategy":0,"pattern":"/cart"}]}]`
	// A route limited to 2 requests a second, and the API group per
	// X-Tenant value.
	pushGatewayRules = `[{"burst":0,"controlBehavior":0,"count":2.0,"grade":1,"intervalSec":1,"maxQueueingTimeoutMs":500,"resource":"orders-route","resourceMode":0},` +
		`{"burst":1,"controlBehavior":0,"count":5.0,"grade":1,"intervalSec":2,"maxQueueingTimeoutMs":500,"paramItem":{"fieldName":"X-Tenant","matchStrategy":0,"parseStrategy":2},"resource":"orders-api","resourceMode":1}]`
)

// javaGatewayRule is the dashboard's GatewayFlowRule as fastjson fills it
// from gateway/getRules.
type javaGatewayRule struct {
	Resource             string  `json:"resource"`
	ResourceMode         int     `json:"resourceMode"`
	Grade                int     `json:"grade"`
	Count                float64 `json:"count"`
	IntervalSec          int64   `json:"intervalSec"`
	ControlBehavior      int     `json:"controlBehavior"`
	Burst                int     `json:"burst"`
	MaxQueueingTimeoutMs int     `json:"maxQueueingTimeoutMs"`
	ParamItem            *struct {
		Index         *int    `json:"index"`
		ParseStrategy int     `json:"parseStrategy"`
		FieldName     *string `json:"fieldName"`
		Pattern       *string `json:"pattern"`
		MatchStrategy int     `json:"matchStrategy"`
	} `json:"paramItem"`
}

// javaAPIDefinition is the dashboard's ApiDefinitionEntity as fastjson
// fills it from gateway/getApiDefinitions.
type javaAPIDefinition struct {
	APIName        string `json:"apiName"`
	PredicateItems []struct {
		Pattern       string `json:"pattern"`
		MatchStrategy int    `json:"matchStrategy"`
	} `json:"predicateItems"`
}

// newGatewayFixture is newFixture for a gateway app, clearing the gateway's
// rules after the test.
func newGatewayFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	cfg.AppType = AppTypeGateway
	f := newFixture(t, cfg)
	t.Cleanup(func() {
		if err := gateway.Load(nil, nil); err != nil {
			t.Errorf("clearing gateway rules: %v", err)
		}
	})
	return f
}

var gatewayCommands = []string{"gateway/getApiDefinitions", "gateway/updateApiDefinitions", "gateway/getRules", "gateway/updateRules"}

// A service without the gateway module answers the gateway commands as a
// Java service without sentinel-api-gateway-adapter-common does.
func TestGatewayCommandsOnlyForGatewayApps(t *testing.T) {
	f := newFixture(t, Config{})
	for _, c := range gatewayCommands {
		if code, body := f.get(c, nil); code != 400 || body != "Unknown command `"+c+"`" {
			t.Errorf("%s on a normal app = %d %q", c, code, body)
		}
	}
	if _, body := f.get("api", nil); strings.Contains(body, "gateway/") {
		t.Errorf("api of a normal app lists gateway commands: %s", body)
	}
	g := newGatewayFixture(t, Config{})
	_, body := g.get("api", nil)
	for _, c := range gatewayCommands {
		if !strings.Contains(body, `"/`+c+`"`) {
			t.Errorf("api of a gateway app lacks %s: %s", c, body)
		}
	}
}

// The dashboard's gateway pages: pushed API groups and rules are in force
// (a guarded route refuses the third request of a second), and read back
// as the dashboard reads them.
func TestGatewayPushesAreInForceAndReadBack(t *testing.T) {
	f := newGatewayFixture(t, Config{})
	if code, body := f.get("gateway/getRules", nil); code != 200 || body != "[]" {
		t.Errorf("gateway/getRules before any rule = %d %q", code, body)
	}
	if code, body := f.post("gateway/updateApiDefinitions", url.Values{"data": {pushGatewayAPIs}}); code != 200 || body != "success" {
		t.Fatalf("updateApiDefinitions = %d %q", code, body)
	}
	if code, body := f.post("gateway/updateRules", url.Values{"data": {pushGatewayRules}}); code != 200 || body != "success" {
		t.Fatalf("updateRules = %d %q", code, body)
	}
	want := []gateway.FlowRule{
		{Resource: "orders-route", Grade: runtime.FlowGradeQPS, Count: 2, IntervalSec: 1, MaxQueueingTimeoutMs: 500},
		{Resource: "orders-api", ResourceMode: gateway.ModeAPI, Grade: runtime.FlowGradeQPS, Count: 5, IntervalSec: 2, Burst: 1,
			MaxQueueingTimeoutMs: 500, ParamItem: &gateway.ParamItem{ParseStrategy: gateway.ParseHeader, FieldName: "X-Tenant"}},
	}
	if got := gateway.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("gateway rules in force %+v, want %+v", got, want)
	}
	if got := gateway.APIDefinitions(); len(got) != 1 || got[0].Name != "orders-api" || len(got[0].Predicates) != 2 ||
		got[0].Predicates[0].MatchStrategy != gateway.MatchPrefix {
		t.Errorf("API definitions in force %+v", got)
	}

	// In force: the route's third request in one second is refused.
	g := gateway.NewGuard(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}),
		gateway.WithRoute(func(*http.Request) string { return "orders-route" }))
	var codes []int
	for range 3 {
		w := httptest.NewRecorder()
		g.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/other", nil))
		codes = append(codes, w.Code)
	}
	if codes[0] != 200 || codes[1] != 200 || codes[2] != http.StatusTooManyRequests {
		t.Errorf("guarded route answered %v, want 200 200 429", codes)
	}

	code, body := f.get("gateway/getRules", nil)
	var rules []javaGatewayRule
	decodeJSON(t, body, &rules)
	if code != 200 || len(rules) != 2 {
		t.Fatalf("gateway/getRules = %d %s", code, body)
	}
	r, a := rules[0], rules[1]
	if r.Resource != "orders-route" || r.ResourceMode != 0 || r.Grade != 1 || r.Count != 2 || r.IntervalSec != 1 ||
		r.MaxQueueingTimeoutMs != 500 || r.ParamItem != nil {
		t.Errorf("route rule read back %+v", r)
	}
	if a.Resource != "orders-api" || a.ResourceMode != 1 || a.Grade != 1 || a.Count != 5 || a.IntervalSec != 2 || a.Burst != 1 ||
		a.ParamItem == nil || a.ParamItem.Index == nil || *a.ParamItem.Index != 0 || a.ParamItem.ParseStrategy != 2 ||
		a.ParamItem.FieldName == nil || *a.ParamItem.FieldName != "X-Tenant" || a.ParamItem.Pattern != nil {
		t.Errorf("API rule read back %+v (%s)", a, body)
	}
	if !strings.Contains(body, `"count":2.0`) {
		t.Errorf("count not written as a Java double: %s", body)
	}
	code, body = f.get("gateway/getApiDefinitions", nil)
	var apis []javaAPIDefinition
	decodeJSON(t, body, &apis)
	if code != 200 || len(apis) != 1 || apis[0].APIName != "orders-api" || len(apis[0].PredicateItems) != 2 ||
		apis[0].PredicateItems[0].Pattern != "/orders/**" || apis[0].PredicateItems[0].MatchStrategy != 1 {
		t.Errorf("gateway/getApiDefinitions = %d %s", code, body)
	}
	// What getRules answered, pushed back unchanged (the dashboard's next
	// edit of another rule), means the same rules.
	if code, body := f.post("gateway/updateRules", url.Values{"data": {mustGet(t, f, "gateway/getRules")}}); code != 200 {
		t.Fatalf("pushing getRules' answer back = %d %q", code, body)
	}
	if got := gateway.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("rules after pushing getRules' answer back %+v, want %+v", got, want)
	}
}

func mustGet(t *testing.T, f *fixture, cmd string) string {
	t.Helper()
	code, body := f.get(cmd, nil)
	if code != 200 {
		t.Fatalf("%s = %d %q", cmd, code, body)
	}
	return body
}

// Each half replaces only itself; a bad push of either changes nothing.
func TestGatewayPushValidateThenSwap(t *testing.T) {
	f := newGatewayFixture(t, Config{})
	for _, p := range []struct{ cmd, data string }{
		{"gateway/updateApiDefinitions", pushGatewayAPIs}, {"gateway/updateRules", pushGatewayRules},
	} {
		if code, body := f.post(p.cmd, url.Values{"data": {p.data}}); code != 200 || body != "success" {
			t.Fatalf("%s = %d %q", p.cmd, code, body)
		}
	}
	rules, apis := gateway.Rules(), gateway.APIDefinitions()
	for _, bad := range []struct{ cmd, data, says string }{
		{"gateway/updateRules", `[{"resource":"orders-route","count":-1.0}]`, "dashboard:gw-flow:1"},
		{"gateway/updateRules", `[{"resource":"orders-route","count":1.0,"cuont":2}]`, `unknown field "cuont"`},
		{"gateway/updateRules", `{"resource":"orders-route"}`, "JSON array"},
		{"gateway/updateRules", ``, "empty data"},
		{"gateway/updateApiDefinitions", `[{"apiName":"orders-api","predicateItems":[]}]`, "predicateItems"},
		{"gateway/updateApiDefinitions", `[{"apiName":"x","predicateItems":[{"matchStrategy":2,"pattern":"("}]}]`, "predicateItems[0]"},
	} {
		code, body := f.post(bad.cmd, url.Values{"data": {bad.data}})
		if code != http.StatusBadRequest || !strings.Contains(body, bad.says) || strings.Contains(body, "success") {
			t.Errorf("%s %s = %d %q, want 400 saying %q", bad.cmd, bad.data, code, body, bad.says)
		}
	}
	if !reflect.DeepEqual(gateway.Rules(), rules) || !reflect.DeepEqual(gateway.APIDefinitions(), apis) {
		t.Errorf("refused pushes changed the gateway's rules: %+v %+v", gateway.Rules(), gateway.APIDefinitions())
	}
	// Rules replaced, definitions kept; then definitions replaced, rules kept.
	one := `[{"burst":0,"controlBehavior":0,"count":9.0,"grade":0,"intervalSec":1,"maxQueueingTimeoutMs":500,"resource":"orders-route","resourceMode":0}]`
	if code, body := f.post("gateway/updateRules", url.Values{"data": {one}}); code != 200 {
		t.Fatalf("updateRules = %d %q", code, body)
	}
	if got := gateway.Rules(); len(got) != 1 || got[0].Count != 9 || got[0].Grade != runtime.FlowGradeConcurrency ||
		!reflect.DeepEqual(gateway.APIDefinitions(), apis) {
		t.Errorf("after updateRules: rules %+v, definitions %+v", got, gateway.APIDefinitions())
	}
	if code, body := f.post("gateway/updateApiDefinitions", url.Values{"data": {"[]"}}); code != 200 || body != "success" {
		t.Fatalf("updateApiDefinitions [] = %d %q", code, body)
	}
	if len(gateway.APIDefinitions()) != 0 || len(gateway.Rules()) != 1 {
		t.Errorf("after updateApiDefinitions []: rules %+v, definitions %+v", gateway.Rules(), gateway.APIDefinitions())
	}
}

func TestGatewayPushReadOnly(t *testing.T) {
	f := newGatewayFixture(t, Config{ReadOnly: true})
	for _, p := range []struct{ cmd, data string }{
		{"gateway/updateApiDefinitions", pushGatewayAPIs}, {"gateway/updateRules", pushGatewayRules},
	} {
		if code, body := f.post(p.cmd, url.Values{"data": {p.data}}); code != http.StatusForbidden || !strings.Contains(body, "read-only") {
			t.Errorf("read-only %s = %d %q", p.cmd, code, body)
		}
	}
	if len(gateway.Rules())+len(gateway.APIDefinitions()) != 0 {
		t.Errorf("read-only pushes changed the rules: %+v %+v", gateway.Rules(), gateway.APIDefinitions())
	}
	if code, _ := f.get("gateway/getRules", nil); code != 200 {
		t.Errorf("gateway/getRules in read-only mode = %d", code)
	}
}

// Gateway pushes are persisted with every other kind: the rules file
// holds the gateway's rules and API groups beside the flow rules.
func TestGatewayPushesArePersisted(t *testing.T) {
	for _, ext := range []string{"toml", "json"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rules."+ext)
			f := newGatewayFixture(t, Config{Writer: file.New(path)})
			for _, p := range []struct {
				cmd string
				p   url.Values
			}{
				{"setRules", url.Values{"type": {"flow"}, "data": {`[{"resource":"orders-svc","grade":1,"count":4.0}]`}}},
				{"gateway/updateApiDefinitions", url.Values{"data": {pushGatewayAPIs}}},
				{"gateway/updateRules", url.Values{"data": {pushGatewayRules}}},
			} {
				if code, body := f.post(p.cmd, p.p); code != 200 || body != "success" {
					t.Fatalf("%s = %d %q", p.cmd, code, body)
				}
			}
			stored, err := rules.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(stored.GatewayFlow, gateway.Rules()) || len(stored.APIGroups) != 1 ||
				stored.APIGroups[0].Name != "orders-api" || len(stored.Flow) != 1 || stored.Flow[0].Count != 4 {
				t.Errorf("file holds flow %+v, gateway %+v, APIs %+v", stored.Flow, stored.GatewayFlow, stored.APIGroups)
			}
			// A later flow push keeps the gateway's rules in the file.
			if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {"[]"}}); code != 200 {
				t.Fatalf("flow push = %d %q", code, body)
			}
			if stored, err := rules.Load(path); err != nil || len(stored.GatewayFlow) != 2 || len(stored.Flow) != 0 {
				t.Errorf("after a flow push the file holds %+v (%v)", stored, err)
			}
		})
	}
}

// A push of the user's kinds leaves the gateway's rules in force.
func TestPushesKeepTheGatewayRules(t *testing.T) {
	f := newGatewayFixture(t, Config{})
	if code, body := f.post("gateway/updateRules", url.Values{"data": {pushGatewayRules}}); code != 200 {
		t.Fatalf("updateRules = %d %q", code, body)
	}
	want := gateway.Rules()
	g := gateway.NewGuard(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}),
		gateway.WithRoute(func(*http.Request) string { return "orders-route" }))
	step := time.Duration(0)
	// limited says whether the route still refuses the third request of a
	// second (its gw-flow rule allows 2).
	limited := func() bool {
		step += 5 * time.Second
		f.at(step)
		var last int
		for range 3 {
			w := httptest.NewRecorder()
			g.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/x", nil))
			last = w.Code
		}
		return last == http.StatusTooManyRequests
	}
	if !limited() {
		t.Fatal("the gateway rule is not in force")
	}
	for _, p := range []struct{ cmd, kind, data string }{
		{"setParamFlowRules", "", `[{"resource":"orders-svc","paramIdx":0,"count":5.0,"grade":1}]`},
		{"setRules", "flow", `[{"resource":"orders-svc","grade":1,"count":4.0}]`},
		{"setParamFlowRules", "", `[]`},
	} {
		if code, body := f.post(p.cmd, url.Values{"type": {p.kind}, "data": {p.data}}); code != 200 {
			t.Fatalf("%s %s = %d %q", p.cmd, p.kind, code, body)
		}
		if got := gateway.Rules(); !reflect.DeepEqual(got, want) || !limited() {
			t.Errorf("after %s %s the gateway rules are %+v, in force: %v", p.cmd, p.kind, got, limited())
		}
	}
	// A hot-parameter rule on a gateway route is refused, as the gateway
	// takes gateway rules only.
	code, body := f.post("setParamFlowRules", url.Values{"data": {`[{"resource":"orders-route","paramIdx":0,"count":5.0,"grade":1}]`}})
	if code != http.StatusBadRequest || !strings.Contains(body, "gateway") {
		t.Errorf("param rule on a gateway route = %d %q", code, body)
	}
}

func TestHeartbeatAnnouncesAGateway(t *testing.T) {
	forms := make(chan url.Values, 4)
	dash := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		forms <- r.PostForm
	}))
	defer dash.Close()
	newGatewayFixture(t, Config{App: "edge-go", Dashboard: strings.TrimPrefix(dash.URL, "http://")})
	select {
	case form := <-forms:
		if form.Get("app") != "edge-go" || form.Get("app_type") != "1" {
			t.Errorf("heartbeat form %v, want app_type=1", form)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no heartbeat")
	}
}
