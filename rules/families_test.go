package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// System rules: every threshold unset (-1) unless the document sets it, in
// both formats; the kind of a JSON array is told by its keys.
func TestSystemRules(t *testing.T) {
	native := mustParseText(t, "s.toml", "[[system]]\nqps = 100\n\n[[system]]\nhighestCpuUsage = 0.8\nmaxThread = 50\n")
	// Sentinel's dashboard writes one rule per threshold, every other
	// field -1, with its entity's own keys; Java's fastjson adds regex.
	sentinel := mustParseText(t, "x.json", `[
 {"id": 1, "app": "orders", "ip": "10.0.0.1", "port": 8719, "highestSystemLoad": -1, "highestCpuUsage": -1, "qps": 100, "avgRt": -1, "maxThread": -1, "regex": false},
 {"highestCpuUsage": 0.8, "maxThread": 50}
]`)
	want := []runtime.SystemRule{
		{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 100, AvgRT: -1, MaxThread: -1},
		{HighestSystemLoad: -1, HighestCPUUsage: 0.8, QPS: -1, AvgRT: -1, MaxThread: 50},
	}
	if !slices.Equal(native.System, want) {
		t.Errorf("TOML: %+v", native.System)
	}
	if !slices.Equal(sentinel.System, want) {
		t.Errorf("JSON: %+v", sentinel.System)
	}
	if got := native.SystemAt; len(got) != 2 || got[1].Line != 4 {
		t.Errorf("positions %v", got)
	}
	checkTexts(t, "dashboard keys", warningTexts(sentinel), []string{
		`x.json:2: [0].id: unknown field, ignored`, `x.json:2: [0].app: unknown field, ignored`,
		`x.json:2: [0].ip: unknown field, ignored`, `x.json:2: [0].port: unknown field, ignored`})

	empty := mustParseText(t, "s.toml", "[[system]]\n")
	checkTexts(t, "empty rule", warningTexts(empty), []string{
		`s.toml:1: sets no threshold (highestSystemLoad, highestCpuUsage, qps, avgRt, maxThread): the rule has no effect`})

	_, err := parseText("s.toml", "[[system]]\nqps = 'fast'\nhighestCpuUsage = 80\nmaxThreads = 5\n")
	checkTexts(t, "errors", errorTexts(err), []string{
		`s.toml:2: qps: want a number, found string "fast"`,
		`s.toml:3: highestCpuUsage: 80 must be at most 1: it is a fraction of the CPUs the process may use, not a percentage`,
		`s.toml:4: maxThreads: unknown field; did you mean "maxThread"?`})
	_, err = parseText("system-rules.json", `[{"avgRt": 1.5}]`)
	checkTexts(t, "JSON error", errorTexts(err), []string{`system-rules.json:1: [0].avgRt: 1.5 is not a whole number`})
}

// Authority rules: strategy defaults to white; an array of Sentinel's
// AuthorityRule objects is recognised by its keys; a flow rule with a
// limitApp is still a flow rule.
func TestAuthorityRules(t *testing.T) {
	native := mustParseText(t, "a.toml", "[[authority]]\nresource = 'pay'\nlimitApp = 'app-a,app-b'\n\n[[authority]]\nresource = 'pay'\nlimitApp = 'bad'\nstrategy = 'black'\n")
	sentinel := mustParseText(t, "x.json", `[{"resource": "pay", "limitApp": "app-a,app-b", "strategy": 0, "regex": false},
 {"resource": "pay", "limitApp": "bad", "strategy": 1}]`)
	want := []runtime.AuthorityRule{
		{Resource: "pay", LimitApp: "app-a,app-b", Strategy: runtime.AuthorityWhite},
		{Resource: "pay", LimitApp: "bad", Strategy: runtime.AuthorityBlack},
	}
	for _, s := range []Set{native, sentinel} {
		if !slices.Equal(s.Authority, want) || len(s.Flow) != 0 || len(s.Warnings) != 0 {
			t.Errorf("%+v / flow %+v / %v", s.Authority, s.Flow, warningTexts(s))
		}
	}
	flow := mustParseText(t, "x.json", `[{"resource": "pay", "limitApp": "app-a", "strategy": 0, "count": 5}]`)
	if len(flow.Flow) != 1 || len(flow.Authority) != 0 {
		t.Errorf("flow rule with limitApp read as %+v", flow)
	}
	_, err := parseText("a.toml", "[[authority]]\nresource = 'pay'\nstrategy = 'grey'\n\n[[authority]]\nlimitApp = 'x'\n")
	checkTexts(t, "errors", errorTexts(err), []string{
		`a.toml:1: limitApp: names no origin`,
		`a.toml:3: strategy: "grey" is not a valid authority strategy; use "white" (0) or "black" (1)`,
		`a.toml:5: resource: is empty; name the resource the rule guards`})
}

// Flow rules' limitApp, any caller's name and not only "default", is read in
// both formats, written back, and "" equals "default".
func TestFlowLimitApp(t *testing.T) {
	native := mustParseText(t, "f.toml", "[[flow]]\nresource = 'a'\nlimitApp = 'app-a'\ncount = 1\n\n[[flow]]\nresource = 'a'\nlimitApp = 'other'\ncount = 2\n\n[[flow]]\nresource = 'a'\ncount = 3\n")
	sentinel := mustParseText(t, "f-flow.json", `[{"resource": "a", "limitApp": "app-a", "count": 1}, {"resource": "a", "limitApp": "other", "count": 2}, {"resource": "a", "limitApp": "default", "count": 3}]`)
	for _, s := range []Set{native, sentinel} {
		if got := []string{s.Flow[0].LimitApp, s.Flow[1].LimitApp}; !slices.Equal(got, []string{"app-a", "other"}) || len(s.Warnings) != 0 {
			t.Errorf("limitApp %q, warnings %v", got, warningTexts(s))
		}
	}
	if !native.Equal(sentinel) {
		t.Error(`"" and "default" differ`)
	}
	data, err := Encode(native, FormatTOML)
	if err != nil || !strings.Contains(string(data), "limitApp = \"app-a\"") || strings.Count(string(data), "limitApp") != 2 {
		t.Errorf("TOML:\n%s (%v)", data, err)
	}
	data, err = Encode(native, FormatJSON)
	if err != nil || !strings.Contains(string(data), `"limitApp": "app-a"`) || !strings.Contains(string(data), `"limitApp": "default"`) {
		t.Errorf("JSON:\n%s (%v)", data, err)
	}
}

// A parameter name survives the native format; Sentinel JSON, which has
// no names, refuses it rather than write a wrong index.
func TestEncodeParamName(t *testing.T) {
	s := mustParseText(t, "p.toml", "[[paramFlow]]\nresource = 'detail'\nparam = 'sku'\ncount = 5\n")
	data, err := Encode(s, FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	back := mustParseText(t, "back.toml", string(data))
	if !back.Equal(s) || !slices.Equal(back.ParamFlowParam, []string{"sku"}) {
		t.Errorf("round trip:\n%s\n%+v", data, back)
	}
	if _, err := Encode(s, FormatJSON); err == nil || !strings.Contains(err.Error(), `names its parameter "sku"`) {
		t.Errorf("Encode JSON = %v", err)
	}
}

// Every kind at once: the JSON object form holds them all and reads back.
func TestEncodeAllKindsObject(t *testing.T) {
	s := Set{
		Flow:      []runtime.FlowRule{{Resource: "a", Count: 1}},
		ParamFlow: []runtime.ParamFlowRule{{Resource: "a", Count: 2, ParamIdx: 1}},
		System:    []runtime.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 10, AvgRT: -1, MaxThread: -1}},
		Authority: []runtime.AuthorityRule{{Resource: "a", LimitApp: "x"}},
	}
	data, err := Encode(s, FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"flow"`, `"param-flow"`, `"system"`, `"authority"`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("no %s in\n%s", k, data)
		}
	}
	if strings.Contains(string(data), `"degrade"`) {
		t.Errorf("empty kind written:\n%s", data)
	}
	back, err := Parse(Document{Name: "x.json", Data: data})
	if err != nil || !back.Equal(s) {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

// A degrade key written short (slowRatio for slowRatioThreshold) is an
// unknown field whose message names the key meant.
func TestDegradeShortKeySuggestsFullName(t *testing.T) {
	_, err := parseText("d.toml", "[[degrade]]\nresource = 'pay'\ngrade = 'slowRatio'\ncount = 100\nslowRatio = 0.5\ntimeWindow = 10\n")
	checkTexts(t, "errors", errorTexts(err), []string{
		`d.toml:5: slowRatio: unknown field; did you mean "slowRatioThreshold"?`})
}
