package rules

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestJSONWarnings(t *testing.T) {
	s := mustParseText(t, "orders-flow.json", `[
  {
    "id": 3, "app": "orders", "ip": "10.0.0.1", "port": 8719, "gmtCreate": 1, "gmtModified": 2,
    "resource": "a", "limitApp": "default", "regex": false, "count": 10,
    "cuont": 5,
    "statInterval": "1s",
    "clusterConfig": {"flowId": 1, "strategy": 0, "sampleCount": 10, "acquireRefuseStrategy": 0}
  },
  {
    "resource": "b", "count": 1, "limitApp": "appA", "regex": true,
    "clusterConfig": {"strategy": 1},
    "count": 2
  }
]`)
	checkTexts(t, "warnings", warningTexts(s), []string{
		`orders-flow.json:3: [0].id: unknown field, ignored`,
		`orders-flow.json:3: [0].app: unknown field, ignored`,
		`orders-flow.json:3: [0].ip: unknown field, ignored`,
		`orders-flow.json:3: [0].port: unknown field, ignored`,
		`orders-flow.json:3: [0].gmtCreate: unknown field, ignored`,
		`orders-flow.json:3: [0].gmtModified: unknown field, ignored`,
		`orders-flow.json:5: [0].cuont: unknown field, ignored; did you mean "count"?`,
		`orders-flow.json:6: [0].statInterval: unknown field, ignored; did you mean "statIntervalMs"?`,
		`orders-flow.json:7: [0].clusterConfig.sampleCount: unknown field, ignored`,
		`orders-flow.json:7: [0].clusterConfig.acquireRefuseStrategy: unknown field, ignored`,
		`orders-flow.json:10: [1].regex: regex true is not supported: the resource is matched by its exact name`,
		`orders-flow.json:11: [1].clusterConfig.strategy: clusterConfig strategy 1 is not supported: only 0 (by threshold type) is`,
		`orders-flow.json:12: [1].count: repeated key; the last value is used`,
	})
	if len(s.Flow) != 2 || s.Flow[0].ClusterConfig.FlowID != 1 || s.Flow[1].Count != 2 || s.Flow[1].LimitApp != "appA" {
		t.Errorf("rules = %+v", s.Flow)
	}
}

func TestJSONKinds(t *testing.T) {
	flowJSON := `[{"resource": "a", "count": 1, "controlBehavior": 0}]`
	degradeJSON := `[{"resource": "a", "count": 1, "timeWindow": 5}]`
	plainJSON := `[{"resource": "a", "count": 1}]`
	cases := []struct {
		name    string
		doc     Document
		flow    int
		degrade int
		err     string
	}{
		{"kind given", Document{Name: "x.json", Data: []byte(plainJSON), Kind: KindDegrade}, 0, 0, "x.json:1: [0].timeWindow: 0 must be > 0 (seconds the breaker stays open; required)"},
		{"kind from name", Document{Name: "orders-flow.json", Data: []byte(plainJSON)}, 1, 0, ""},
		{"kind from config key", Document{Name: "nacos:orders-degrade-rules", Data: []byte(degradeJSON)}, 0, 1, ""},
		{"kind from flow fields", Document{Name: "x.json", Data: []byte(flowJSON)}, 1, 0, ""},
		{"kind from degrade fields", Document{Name: "x.json", Data: []byte(degradeJSON)}, 0, 1, ""},
		{"name wins over fields", Document{Name: "flow.json", Data: []byte(degradeJSON)}, 1, 0, ""},
		{"object with both", Document{Name: "x.json", Data: []byte(`{"flow": ` + flowJSON + `, "degrade": ` + degradeJSON + `}`)}, 1, 1, ""},
		{"empty array needs no kind", Document{Name: "x.json", Data: []byte(`[]`)}, 0, 0, ""},
		{"cannot tell", Document{Name: "x.json", Data: []byte(plainJSON)}, 0, 0,
			`x.json:1: cannot tell which kind of rules these are: put its name ("flow", "degrade", "param-flow", "system" or "authority") in the document's name, or set its Kind`},
		{"mixed kinds", Document{Name: "x.json", Data: []byte("[\n" + flowJSON[1:len(flowJSON)-1] + ",\n" + degradeJSON[1:len(degradeJSON)-1] + "]")}, 0, 0,
			`x.json:3: [1]: the array mixes flow and degrade rules; keep one kind per document, or use {"flow": [...], "degrade": [...]}`},
		{"unsupported kind", Document{Name: "x.json", Data: []byte(plainJSON), Kind: "gateway"}, 0, 0,
			`x.json: rule kind "gateway" is not supported; use one of "flow", "degrade", "param-flow", "system" or "authority"`},
	}
	for _, c := range cases {
		s, err := Parse(c.doc)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%s: err = %q, want %q", c.name, got, c.err)
		}
		if len(s.Flow) != c.flow || len(s.Degrade) != c.degrade {
			t.Errorf("%s: %d flow and %d degrade rules, want %d and %d", c.name, len(s.Flow), len(s.Degrade), c.flow, c.degrade)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"field errors with path and line", "[\n {\"resource\": \"a\", \"count\": 1},\n {\"resource\": \"b\",\n  \"count\": -3,\n  \"grade\": \"fast\"}\n]",
			[]string{`flow.json:4: [1].count: -3 must be a finite number >= 0`,
				`flow.json:5: [1].grade: "fast" is not a flow grade; use "concurrency" (0) or "qps" (1)`}},
		{"missing field is named at the rule", `[{"count": 1}]`,
			[]string{`flow.json:1: [0].resource: is empty; name the resource the rule guards`}},
		{"type errors", `[{"resource": ["a"], "count": "5", "clusterMode": 1, "warmUpPeriodSec": 2.5}]`,
			[]string{`flow.json:1: [0].resource: want a string, found an array`,
				`flow.json:1: [0].count: want a number, found string "5"`,
				`flow.json:1: [0].clusterMode: want true or false, found integer 1`,
				`flow.json:1: [0].warmUpPeriodSec: 2.5 is not a whole number`}},
		{"cluster config", `[{"resource": "a", "clusterMode": true, "clusterConfig": {"flowId": 1.5, "thresholdType": 2}}]`,
			[]string{`flow.json:1: [0].clusterConfig.flowId: 1.5 is not a whole number`,
				`flow.json:1: [0].clusterConfig.thresholdType: 2 is not a threshold type; use "avgLocal" (0) or "global" (1)`}},
		{"element not an object", `[{"resource": "a"}, 3]`,
			[]string{`flow.json:1: [1]: want a rule object, found 3`}},
		{"not an array", `"rules"`,
			[]string{`flow.json:1: want an array of Sentinel rules, or an object {"flow": [...], "degrade": [...], ...}; found "rules"`}},
		{"object of kinds", "{\"flow\": [{\"resource\": \"a\", \"count\": -1}],\n \"degrade\": 5}",
			[]string{`flow.json:1: flow[0].count: -1 must be a finite number >= 0`,
				`flow.json:2: degrade: want an array of degrade rules, found 5`}},
		{"syntax error", "[\n {\"resource\": \"a\",,}\n]",
			[]string{`flow.json:2: JSON syntax at column 19: invalid character ',' looking for beginning of object key string`}},
		{"truncated", "[\n {\"resource\": \"a\"",
			[]string{`flow.json:2: JSON syntax at column 18: unexpected end of document`}},
		{"trailing data", "[]\n[]",
			[]string{`flow.json:2: JSON syntax at column 1: unexpected data after the top-level value`}},
		{"odd key", `[{"resource": "a", "": 1, "a b": 2}]`, nil},
		{"too deep", "[" + repeat("[", 70) + repeat("]", 70) + "]",
			[]string{`flow.json:1: [0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: JSON nested too deeply`}},
	}
	for _, c := range cases {
		_, err := parseText("flow.json", c.text)
		checkTexts(t, c.name, errorTexts(err), c.want)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestJSONOddKeysArePathsToo(t *testing.T) {
	s := mustParseText(t, "flow.json", `[{"resource": "a", "count": 1, "": 1, "a b": 2, "x.y": 3}]`)
	checkTexts(t, "warnings", warningTexts(s), []string{
		`flow.json:1: [0][""]: unknown field, ignored`,
		`flow.json:1: [0]["a b"]: a b: unknown field, ignored`,
		`flow.json:1: [0]["x.y"]: x.y: unknown field, ignored`,
	})
}

func TestJSONFlowIDRange(t *testing.T) {
	_, err := parseText("flow.json", `[{"resource": "a", "clusterConfig": {"flowId": 1e19}}, {"resource": "b", "clusterConfig": {"flowId": "7"}}]`)
	checkTexts(t, "errors", errorTexts(err), []string{
		`flow.json:1: [0].clusterConfig.flowId: 1e+19 is out of range`,
		`flow.json:1: [1].clusterConfig.flowId: want an integer, found string "7"`,
	})
	s := mustParseText(t, "flow.json", `[{"resource": "a", "clusterConfig": {"flowId": 1e3}}]`)
	if s.Flow[0].ClusterConfig.FlowID != 1000 {
		t.Errorf("flowId 1e3 = %d", s.Flow[0].ClusterConfig.FlowID)
	}
}

func TestJSONWideFlowID(t *testing.T) {
	s := mustParseText(t, "flow.json", `[{"resource": "a", "clusterMode": true, "clusterConfig": {"flowId": 9007199254740993}}]`)
	if got := s.Flow[0].ClusterConfig.FlowID; got != 9007199254740993 {
		t.Fatalf("flowId = %d", got)
	}
	if s.Flow[0].ClusterMode != true || s.Flow[0].ClusterConfig.FallbackToLocalWhenFail != true ||
		s.Flow[0].ClusterConfig.ThresholdType != runtime.AvgLocal {
		t.Fatalf("rule = %+v", s.Flow[0])
	}
}

// Sentinel JSON keeps Sentinel's reading of a rule without count (Jackson
// leaves the double at 0, which Sentinel accepts), so a document shared with
// Java services loads the same way here; the reader is warned, since such a
// rule blocks every call or trips at once.
func TestJSONMissingCountIsZeroWithWarning(t *testing.T) {
	s := mustParseText(t, "orders-flow.json", `[{"resource": "a"}]`)
	if len(s.Flow) != 1 || s.Flow[0].Count != 0 {
		t.Fatalf("flow = %+v, want one rule with count 0", s.Flow)
	}
	checkTexts(t, "warnings", warningTexts(s), []string{
		`orders-flow.json:1: [0].count: missing; read as 0, as Sentinel does: the rule blocks every call`,
	})
	s = mustParseText(t, "orders-degrade.json", `[{"resource": "a", "timeWindow": 1}]`)
	checkTexts(t, "warnings", warningTexts(s), []string{
		`orders-degrade.json:1: [0].count: missing; read as 0, as Sentinel does: the rule opens the breaker on the first slow call or error`,
	})
}
