package gateway

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestParseFlowRulesDefaultsAndItems(t *testing.T) {
	doc := `[
  {"resource": "orders-route", "count": 5},
  {"resource": "orders-api", "resourceMode": 1, "grade": 1, "count": 2, "intervalSec": 2, "burst": 1,
   "paramItem": {"index": 0, "parseStrategy": 2, "fieldName": "X-Tenant", "pattern": "free-", "matchStrategy": 1}}
]`
	rules, err := ParseFlowRules("gw-flow.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 {
		t.Fatalf("%d rules", len(rules))
	}
	r := rules[0]
	if r.Grade != runtime.FlowGradeQPS || r.IntervalSec != 1 || r.MaxQueueingTimeoutMs != 500 || r.ParamItem != nil {
		t.Errorf("defaults: %+v, want grade QPS, intervalSec 1, maxQueueingTimeoutMs 500", r)
	}
	p := rules[1].ParamItem
	if rules[1].ResourceMode != ModeAPI || p == nil || p.ParseStrategy != ParseHeader || p.FieldName != "X-Tenant" || p.MatchStrategy != MatchPrefix {
		t.Errorf("second rule: %+v %+v", rules[1], p)
	}
	conv := ToParamFlowRules(rules)
	if conv[1].DurationInSec != 2 || conv[1].BurstCount != 1 || len(conv[1].Items) != 1 || conv[1].Items[0].Object != "$NM" {
		t.Errorf("converted: %+v", conv[1])
	}
}

func TestParseErrorsNameFileAndLine(t *testing.T) {
	doc := `[
  {"resource": "a", "count": 1},
  {"resource": "b", "cuont": 1},
  {"resource": "", "count": 1}
]`
	_, err := ParseFlowRules("gw.json", []byte(doc))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`gw.json:3: gw-flow rule #1: json: unknown field "cuont"`, `gw.json:4: gw-flow rule #2 (""): resource: is empty`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := ParseFlowRules("gw.json", []byte(`{"resource": "a"}`)); err == nil || !strings.Contains(err.Error(), "gw.json:1: want a JSON array") {
		t.Errorf("not an array: %v", err)
	}
}

func TestParseAPIDefinitions(t *testing.T) {
	doc := `[{"apiName": "orders-api", "predicateItems": [{"pattern": "/orders/**", "matchStrategy": 1}, {"pattern": "/cart"}]}]`
	apis, err := ParseAPIDefinitions("gw-api-group.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(apis) != 1 || apis[0].Name != "orders-api" || len(apis[0].Predicates) != 2 || apis[0].Predicates[1].MatchStrategy != MatchExact {
		t.Errorf("got %+v", apis)
	}
}

// TestJSONRoundTrip holds what the transport's gateway/getRules and
// getApiDefinitions would answer (json.Marshal of Rules and
// APIDefinitions) to what ParseFlowRules and ParseAPIDefinitions read, and
// LoadFlowRules and LoadAPIDefinitions to changing one half only.
func TestJSONRoundTrip(t *testing.T) {
	setup(t)
	rules := []FlowRule{
		{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 2, IntervalSec: 1, MaxQueueingTimeoutMs: 500},
		{Resource: "a", ResourceMode: ModeAPI, Grade: runtime.FlowGradeConcurrency, Count: 1, IntervalSec: 3, MaxQueueingTimeoutMs: 500,
			ParamItem: &ParamItem{ParseStrategy: ParseCookie, FieldName: "sid", Pattern: "x", MatchStrategy: MatchContains}},
	}
	apis := []APIDefinition{{Name: "a", Predicates: []PathPredicate{{Pattern: "/a/**", MatchStrategy: MatchPrefix}}}}
	mustLoad(t, rules, apis)
	data, err := json.Marshal(Rules())
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseFlowRules("getRules", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rules) {
		t.Errorf("rules after a round trip:\n%s\n%+v", data, back)
	}
	data, err = json.Marshal(APIDefinitions())
	if err != nil {
		t.Fatal(err)
	}
	backAPI, err := ParseAPIDefinitions("getApiDefinitions", data)
	if err != nil || !reflect.DeepEqual(backAPI, apis) {
		t.Errorf("definitions after a round trip: %s %+v %v", data, backAPI, err)
	}
	if err := LoadFlowRules(rules[:1]); err != nil {
		t.Fatal(err)
	}
	if len(Rules()) != 1 || len(APIDefinitions()) != 1 {
		t.Errorf("LoadFlowRules: %d rules, %d definitions; want 1 and the definition kept", len(Rules()), len(APIDefinitions()))
	}
	if err := LoadAPIDefinitions(nil); err != nil {
		t.Fatal(err)
	}
	if len(Rules()) != 1 || len(APIDefinitions()) != 0 {
		t.Errorf("LoadAPIDefinitions: %d rules, %d definitions; want the rule kept and none", len(Rules()), len(APIDefinitions()))
	}
}
