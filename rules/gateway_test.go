package rules

import (
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func clearGatewayRules(t *testing.T) {
	t.Helper()
	clearRuntimeRules(t)
	if err := gateway.Load(nil, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gateway.Load(nil, nil) })
}

const gwFlowJSON = `[
  {"resource": "orders-api", "resourceMode": 1, "grade": 1, "count": 5,
   "paramItem": {"parseStrategy": 2, "fieldName": "X-Tenant"}},
  {"resource": "GET /orders/{id}", "count": 2, "intervalSec": 2}
]`

const gwAPIJSON = `[
  {"apiName": "orders-api", "predicateItems": [{"pattern": "/orders/**", "matchStrategy": 1}]}
]`

const gwTOML = `[[flow]]
resource = "checkout"
count = 10

[[gatewayFlow]]
resource = "orders-api"
resourceMode = 1
grade = 1
count = 5
[gatewayFlow.paramItem]
parseStrategy = 2
fieldName = "X-Tenant"

[[gatewayFlow]]
resource = "GET /orders/{id}"
count = 2
intervalSec = 2

[[apiGroup]]
apiName = "orders-api"
[[apiGroup.predicateItems]]
pattern = "/orders/**"
matchStrategy = 1
`

func mustParse(t *testing.T, doc Document) Set {
	t.Helper()
	s, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The gateway kinds are read by document name, by fields and in the object
// form, with Sentinel's defaults and each rule's line.
func TestGatewayKindsInJSON(t *testing.T) {
	byName := mustParse(t, Document{Name: "sentinel/gw-flow.json", Data: []byte(gwFlowJSON)})
	if !byName.HasGateway || len(byName.GatewayFlow) != 2 || len(byName.Flow) != 0 {
		t.Fatalf("gw-flow.json read as %+v", byName)
	}
	if r := byName.GatewayFlow[1]; r.Grade != runtime.FlowGradeQPS || r.IntervalSec != 2 || r.MaxQueueingTimeoutMs != 500 {
		t.Errorf("defaults not Sentinel's: %+v", r)
	}
	if at := byName.GatewayFlowAt; len(at) != 2 || at[0].Line != 2 || at[1].Line != 4 || at[1].File != "sentinel/gw-flow.json" {
		t.Errorf("positions %+v", at)
	}
	byFields := mustParse(t, Document{Name: "edge.json", Data: []byte(gwFlowJSON)})
	apis := mustParse(t, Document{Name: "edge-apis.json", Data: []byte(gwAPIJSON)})
	if !byFields.Equal(byName) || len(apis.APIGroups) != 1 || apis.APIGroups[0].Predicates[0].Pattern != "/orders/**" {
		t.Fatalf("by fields: %+v / %+v", byFields, apis)
	}
	named := mustParse(t, Document{Name: "x", Kind: KindAPIGroup, Data: []byte(gwAPIJSON)})
	if !named.Equal(apis) {
		t.Fatalf("Kind given: %+v", named)
	}
	obj := `{"flow": [{"resource": "checkout", "count": 10}],
"gw-flow": ` + gwFlowJSON + `,
"gw-api-group": ` + gwAPIJSON + `}`
	s := mustParse(t, Document{Name: "all.json", Data: []byte(obj)})
	if len(s.Flow) != 1 || len(s.GatewayFlow) != 2 || len(s.APIGroups) != 1 || len(s.Warnings) != 0 {
		t.Fatalf("object form: %+v", s)
	}
	if s.GatewayFlowAt[1].Line != 5 || s.APIGroupsAt[0].Line != 8 {
		t.Errorf("object form lines: %+v %+v", s.GatewayFlowAt, s.APIGroupsAt)
	}
	empty := mustParse(t, Document{Name: "gw-flow.json", Data: []byte(`[]`)})
	if !empty.HasGateway || len(empty.GatewayFlow) != 0 {
		t.Errorf("empty gw-flow document: %+v", empty)
	}
}

// TOML's [[gatewayFlow]] and [[apiGroup]] read as the JSON does.
func TestGatewayKindsInTOML(t *testing.T) {
	s := mustParse(t, Document{Name: "edge.toml", Data: []byte(gwTOML)})
	want := mustParse(t, Document{Name: "gw-flow.json", Data: []byte(gwFlowJSON)}).
		Merge(mustParse(t, Document{Name: "gw-api-group.json", Data: []byte(gwAPIJSON)}))
	want.Flow = mustParse(t, Document{Name: "f.toml", Data: []byte(gwTOML[:strings.Index(gwTOML, "[[gatewayFlow]]")])}).Flow
	if !s.Equal(want) || !s.HasGateway {
		t.Fatalf("TOML:\n got %+v\nwant %+v", s, want)
	}
	if s.GatewayFlowAt[0].Line != 5 || s.GatewayFlowAt[1].Line != 14 || s.APIGroupsAt[0].Line != 19 {
		t.Errorf("TOML lines %+v %+v", s.GatewayFlowAt, s.APIGroupsAt)
	}
}

func TestGatewayKindErrorsNameFileAndLine(t *testing.T) {
	bad := strings.Replace(gwTOML, "intervalSec = 2", "intervalSec = 2\ncuont = 1", 1)
	_, err := Parse(Document{Name: "edge.toml", Data: []byte(bad)})
	if err == nil || !strings.Contains(err.Error(), `edge.toml:14: gw-flow rule #1: json: unknown field "cuont"`) {
		t.Errorf("TOML unknown field: %v", err)
	}
	_, err = Parse(Document{Name: "gw-flow.json", Data: []byte(`[{"resource": "a", "count": 1},
 {"resource": "b", "count": -1}]`)})
	if err == nil || !strings.Contains(err.Error(), `gw-flow.json:2: gw-flow rule #1 ("b"): count`) {
		t.Errorf("JSON bad count: %v", err)
	}
	// Set built in code: Validate names the rule.
	err = Validate(Set{GatewayFlow: []gateway.FlowRule{{Resource: "r", Count: 1}, {Resource: "", Count: 1}}, HasGateway: true})
	if err == nil || !strings.Contains(err.Error(), "gw-flow[1].resource: is empty") {
		t.Errorf("Validate: %v", err)
	}
}

// Parse(Encode(s)) is s, in both formats.
func TestGatewayKindsEncode(t *testing.T) {
	s := mustParse(t, Document{Name: "edge.toml", Data: []byte(gwTOML)})
	for _, f := range []Format{FormatTOML, FormatJSON} {
		data, err := Encode(s, f)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(Document{Name: "x", Format: f, Data: data})
		if err != nil {
			t.Fatalf("%v: %v\n%s", f, err, data)
		}
		if !back.Equal(s) {
			t.Fatalf("%v round trip:\n%s\n got %+v", f, data, back)
		}
	}
	only := Set{GatewayFlow: s.GatewayFlow}
	data, err := Encode(only, FormatJSON)
	if err != nil || !strings.HasPrefix(string(data), "[") {
		t.Fatalf("one gateway kind is not a Sentinel array: %v\n%s", err, data)
	}
	if back := mustParse(t, Document{Name: "gw-flow.json", Data: data}); !back.Equal(only) {
		t.Fatalf("array round trip: %+v", back)
	}
}

// Apply puts the gateway kinds in force with the others; a set without
// them leaves the gateway's rules alone; any error changes nothing.
func TestApplyGatewayKinds(t *testing.T) {
	clearGatewayRules(t)
	s := mustParse(t, Document{Name: "edge.toml", Data: []byte(gwTOML)})
	if err := Apply(s); err != nil {
		t.Fatal(err)
	}
	if len(gateway.Rules()) != 2 || len(gateway.APIDefinitions()) != 1 || len(runtime.FlowRules()) != 1 {
		t.Fatalf("in force: %+v %+v %+v", gateway.Rules(), gateway.APIDefinitions(), runtime.FlowRules())
	}
	if !Current().Equal(s) {
		t.Errorf("Current() lacks the gateway kinds: %+v", Current())
	}
	// A file of other kinds only (no gateway document) keeps the gateway's.
	if err := Apply(Set{Flow: s.Flow, ParamFlow: []runtime.ParamFlowRule{{Resource: "sku", Count: 1}}}); err != nil {
		t.Fatal(err)
	}
	if len(gateway.Rules()) != 2 || len(runtime.GatewayParamFlowRules()) != 2 {
		t.Fatalf("gateway rules dropped by a load of other kinds: %+v", gateway.Rules())
	}
	// Invalid gateway rule: nothing changes.
	bad := s
	bad.Flow = []runtime.FlowRule{{Resource: "new", Count: 1}}
	bad.GatewayFlow = append([]gateway.FlowRule{{Resource: "x", Count: 1, IntervalSec: -1}}, s.GatewayFlow...)
	if err := Apply(bad); err == nil || !strings.Contains(err.Error(), "intervalSec") {
		t.Fatalf("bad gateway rule: %v", err)
	}
	// A user's param rule on a gateway resource: refused, at its line.
	conflict := s
	conflict.ParamFlow = []runtime.ParamFlowRule{{Resource: "orders-api", Count: 1}}
	conflict.ParamFlowAt = []Position{{File: "edge.toml", Line: 30}}
	if err := Apply(conflict); err == nil || !strings.Contains(err.Error(), "edge.toml:30") {
		t.Fatalf("param rule on a gateway resource: %v", err)
	}
	if got := runtime.FlowRules(); len(got) != 1 || got[0].Resource != "checkout" {
		t.Errorf("flow rules changed by failed applies: %+v", got)
	}
	if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].Resource != "sku" {
		t.Errorf("param rules changed by failed applies: %+v", got)
	}
	if len(gateway.Rules()) != 2 {
		t.Errorf("gateway rules changed by failed applies: %+v", gateway.Rules())
	}
	// An empty gateway document clears them.
	if err := Apply(mustParse(t, Document{Name: "gw-flow.json", Data: []byte(`[]`)})); err != nil {
		t.Fatal(err)
	}
	if len(gateway.Rules())+len(gateway.APIDefinitions()) != 0 {
		t.Errorf("empty gw-flow document left %+v", gateway.Rules())
	}
}
