package rules

import (
	"reflect"
	"slices"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// A param-flow rule in TOML and its Sentinel JSON twin read into the same
// rule, with Sentinel's defaults for what they leave out.
func TestParamFlowTOMLEqualsJSON(t *testing.T) {
	native := mustParseText(t, "p.toml", `
[[paramFlow]]
resource = "detail"
paramIdx = 0
count = 5
burstCount = 2
duration = "2s"
paramFlowItemList = [
  { object = "sku-1", classType = "String", count = 100 },
  { object = "42", classType = "int", count = 1 },
]

[[paramFlow]]
resource = "detail"
grade = "concurrency"
paramIdx = -1
count = 3
`)
	sentinel := mustParseText(t, "orders-param-flow.json", `[
  {"resource": "detail", "limitApp": "default", "grade": 1, "paramIdx": 0, "count": 5, "controlBehavior": 0,
   "maxQueueingTimeMs": 0, "burstCount": 2, "durationInSec": 2, "clusterMode": false,
   "paramFlowItemList": [{"object": "sku-1", "classType": "String", "count": 100}, {"object": "42", "classType": "int", "count": 1}]},
  {"resource": "detail", "grade": 0, "paramIdx": -1, "count": 3}
]`)
	want := []runtime.ParamFlowRule{
		{Resource: "detail", Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 5, BurstCount: 2, DurationInSec: 2,
			Items: []runtime.ParamFlowItem{{Object: "sku-1", ClassType: "String", Count: 100}, {Object: "42", ClassType: "int", Count: 1}}},
		{Resource: "detail", Grade: runtime.FlowGradeConcurrency, ParamIdx: -1, Count: 3, DurationInSec: 1},
	}
	for _, s := range []Set{native, sentinel} {
		if !reflect.DeepEqual(s.ParamFlow, want) {
			t.Errorf("%v:\n got %+v\nwant %+v", s.ParamFlowAt, s.ParamFlow, want)
		}
		if len(s.Warnings) != 0 {
			t.Errorf("warnings: %v", warningTexts(s))
		}
	}
	if !native.Equal(sentinel) {
		t.Error("TOML and JSON twins are not Equal")
	}
	if got := native.ParamFlowAt; len(got) != 2 || got[0].Line != 2 || got[1].Line != 13 {
		t.Errorf("positions %v, want lines 2 and 13", got)
	}
	if native.ParamFlowParam != nil {
		t.Errorf("ParamFlowParam = %q for rules that give indexes", native.ParamFlowParam)
	}
}

// The kind of a JSON array of param-flow rules is told by its name or by
// keys only param-flow rules have, although they share controlBehavior and
// clusterMode with flow rules.
func TestParamFlowKindInference(t *testing.T) {
	fields := `[{"resource": "a", "paramIdx": 0, "count": 1, "controlBehavior": 0, "clusterMode": false}]`
	plain := `[{"resource": "a", "count": 1, "controlBehavior": 0}]`
	for _, c := range []struct {
		name, text string
		paramFlow  int
	}{
		{"x.json", fields, 1},
		{"orders-param-flow-rules.json", `[{"resource": "a", "paramIdx": 0, "count": 1}]`, 1},
		{"etcd:/sentinel/orders/paramflow", `[{"resource": "a", "paramIdx": 0, "count": 1}]`, 1},
		{"orders-flow.json", plain, 0},
	} {
		s := mustParseText(t, c.name, c.text)
		if len(s.ParamFlow) != c.paramFlow || len(s.Flow) != 1-c.paramFlow {
			t.Errorf("%s: %d param-flow, %d flow rules", c.name, len(s.ParamFlow), len(s.Flow))
		}
	}
	for name, want := range map[string]Kind{
		"orders-param-flow.json": KindParamFlow, "orders-param_flow": KindParamFlow, "hotspot.json": KindParamFlow,
		"orders-flow.json": KindFlow, "system-rules.json": KindSystem, "authority": KindAuthority,
		"flow-and-degrade.json": KindAuto, "param-flow-and-flow.json": KindAuto,
	} {
		if got := KindFromName(name); got != want {
			t.Errorf("KindFromName(%q) = %q, want %q", name, got, want)
		}
	}
	obj := mustParseText(t, "x.json", `{"flow": `+plain+`, "param-flow": `+fields+`, "paramFlow": `+fields+`}`)
	if len(obj.Flow) != 1 || len(obj.ParamFlow) != 2 {
		t.Errorf("object form: %d flow, %d param-flow", len(obj.Flow), len(obj.ParamFlow))
	}
}

// TOML may name the parameter; the name is kept beside the rule for Apply
// to resolve, and giving both spellings is refused.
func TestParamFlowParamName(t *testing.T) {
	s := mustParseText(t, "p.toml", `
[[paramFlow]]
resource = "detail"
paramIdx = 1
count = 5

[[paramFlow]]
resource = "detail"
param = "sku"
count = 5
`)
	if !slices.Equal(s.ParamFlowParam, []string{"", "sku"}) {
		t.Errorf("ParamFlowParam = %q", s.ParamFlowParam)
	}
	if s.ParamFlow[0].ParamIdx != 1 {
		t.Errorf("rule 0 ParamIdx = %d", s.ParamFlow[0].ParamIdx)
	}
	// Merging keeps names beside their rules.
	m := Set{ParamFlow: []runtime.ParamFlowRule{{Resource: "x"}}}.Merge(s)
	if !slices.Equal(m.ParamFlowParam, []string{"", "", "sku"}) {
		t.Errorf("merged ParamFlowParam = %q", m.ParamFlowParam)
	}
	if s.Equal(Set{ParamFlow: s.ParamFlow}) {
		t.Error("a rule naming its parameter equals one that does not")
	}
}

func TestParamFlowErrors(t *testing.T) {
	cases := []struct {
		name, file, text string
		want             []string
	}{
		{"no argument", "e.toml", "[[paramFlow]]\nresource = 'a'\ncount = 1\n",
			[]string{`e.toml:1: paramIdx: missing; say which argument the rule limits with paramIdx (the argument's index, after a leading context.Context) or param (the parameter's name)`}},
		{"no argument in JSON", "p-param-flow.json", `[{"resource": "a", "count": 1}]`,
			[]string{`p-param-flow.json:1: [0].paramIdx: missing; say which argument the rule limits with paramIdx (the argument's index, after a leading context.Context)`}},
		{"both spellings", "e.toml", "[[paramFlow]]\nresource = 'a'\nparamIdx = 0\nparam = 'sku'\ncount = 1\n",
			[]string{`e.toml:4: param: sets the same field as paramIdx (e.toml:3); keep one of them`}},
		{"param is native only", "p-param-flow.json", `[{"resource": "a", "param": "sku", "paramIdx": 0, "count": 1}]`, nil},
		{"missing count in TOML", "e.toml", "[[paramFlow]]\nresource = 'a'\nparamIdx = 0\n",
			[]string{`e.toml:1: count: missing; every rule needs its threshold (write count = 0 if you mean one that blocks every value)`}},
		{"typo with suggestion", "e.toml", "[[paramFlow]]\nresource = 'a'\nparamIdx = 0\ncount = 1\nburstCuont = 3\n",
			[]string{`e.toml:5: burstCuont: unknown field; did you mean "burstCount"?`}},
		{"table typo", "e.toml", "[[paramflow]]\nresource = 'a'\n",
			[]string{`e.toml:1: paramflow: unknown table; the native format has [[flow]], [[degrade]], [[paramFlow]], [[system]] and [[authority]]; did you mean [[paramFlow]]?`}},
		{"item errors", "e.toml", "[[paramFlow]]\nresource = 'a'\nparamIdx = 0\ncount = 1\n\n[[paramFlow.paramFlowItemList]]\nobject = 'x'\ncount = 'many'\n\n[[paramFlow.paramFlowItemList]]\nclassType = 'int'\ncount = 2\ncolour = 1\n",
			[]string{`e.toml:8: paramFlowItemList[0].count: want an integer, found string "many"`,
				`e.toml:10: paramFlowItemList[1].object: missing; an item gives the value it limits`,
				`e.toml:13: paramFlowItemList[1].colour: unknown field`}},
		{"zero duration in JSON", "p-param-flow.json", "[\n  {\"resource\": \"a\", \"paramIdx\": 0, \"count\": 1},\n  {\"resource\": \"b\", \"paramIdx\": 0, \"count\": 1,\n   \"durationInSec\": 0}\n]",
			[]string{`p-param-flow.json:4: [1].durationInSec: is 0; a hot-parameter rule counts over 1 second or more, and Sentinel refuses 0 (leave the field out for the default, 1 second)`}},
		{"zero duration in TOML", "e.toml", "[[paramFlow]]\nresource = 'a'\nparamIdx = 0\ncount = 1\nduration = '0s'\n",
			[]string{`e.toml:5: duration: is 0; a hot-parameter rule counts over 1 second or more, and Sentinel refuses 0 (leave the field out for the default, 1 second)`}},
		{"item in JSON", "p-param-flow.json", `[{"resource": "a", "paramIdx": 0, "count": 1, "paramFlowItemList": [{"object": 7, "count": 1}, 3]}]`,
			[]string{`p-param-flow.json:1: [0].paramFlowItemList[1]: want an item {object, classType, count}, found integer 3`}},
	}
	for _, c := range cases {
		_, err := parseText(c.file, c.text)
		checkTexts(t, c.name, errorTexts(err), c.want)
	}
	s := mustParseText(t, "p-param-flow.json", `[{"resource": "a", "paramIdx": 0, "count": 1, "paramFlowItemList": [{"object": 7, "count": 1}]}]`)
	if s.ParamFlow[0].Items[0].Object != "7" {
		t.Errorf("numeric object read as %q", s.ParamFlow[0].Items[0].Object)
	}
}
