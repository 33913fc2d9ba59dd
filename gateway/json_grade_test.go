package gateway

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel's grade numbers are 1 QPS and 0 thread count; runtime.FlowGrade
// has them the other way round, so the document's numbers are mapped.
func TestParseFlowRulesSentinelGrades(t *testing.T) {
	rules, err := ParseFlowRules("gw-flow.json", []byte(`[{"resource": "q", "grade": 1, "count": 1}, {"resource": "t", "grade": 0, "count": 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	if rules[0].Grade != runtime.FlowGradeQPS || rules[1].Grade != runtime.FlowGradeConcurrency {
		t.Fatalf("grades %v %v, want QPS then concurrency", rules[0].Grade, rules[1].Grade)
	}
	if _, err := ParseFlowRules("gw-flow.json", []byte(`[{"resource": "q", "grade": 7}]`)); err == nil || !strings.Contains(err.Error(), "gw-flow.json:1: gw-flow rule #0 (\"q\"): grade: 7") {
		t.Fatalf("grade 7: %v", err)
	}
}

// Encode writes what Parse reads back, equal.
func TestEncodeRoundTrip(t *testing.T) {
	rules := []FlowRule{
		{Resource: "r", Grade: runtime.FlowGradeQPS, Count: 3, IntervalSec: 2, Burst: 1, MaxQueueingTimeoutMs: 500},
		{Resource: "api", ResourceMode: ModeAPI, Grade: runtime.FlowGradeConcurrency, Count: 4, IntervalSec: 1, MaxQueueingTimeoutMs: 0,
			ParamItem: &ParamItem{ParseStrategy: ParseHeader, FieldName: "X-T", Pattern: "a", MatchStrategy: MatchContains}},
	}
	data, err := EncodeFlowRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"grade": 1`) {
		t.Errorf("QPS not written as Sentinel's grade 1:\n%s", data)
	}
	back, err := ParseFlowRules("gw-flow.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rules) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, rules)
	}
	apis := []APIDefinition{{Name: "a", Predicates: []PathPredicate{{Pattern: "/x/**", MatchStrategy: MatchPrefix}}}}
	data, err = EncodeAPIDefinitions(apis)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseAPIDefinitions("gw-api-group.json", data); err != nil || !reflect.DeepEqual(got, apis) {
		t.Fatalf("API round trip: %+v %v", got, err)
	}
}
