package rules

import (
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Every spelling of every enum, in both formats: the word in any case and
// Sentinel's number.
func TestEnumSpellings(t *testing.T) {
	type flowCase struct {
		key, tomlValue, jsonValue string
		extra                     string // other TOML keys the rule needs to be valid
		get                       func(runtime.FlowRule) int64
		want                      int64
	}
	// Sentinel's numbers (0 thread, 1 QPS) map to Go's constants, whose
	// zero value is QPS.
	grade := func(r runtime.FlowRule) int64 { return int64(r.Grade) }
	qps, conc := int64(runtime.FlowGradeQPS), int64(runtime.FlowGradeConcurrency)
	strategy := func(r runtime.FlowRule) int64 { return int64(r.Strategy) }
	behavior := func(r runtime.FlowRule) int64 { return int64(r.ControlBehavior) }
	threshold := func(r runtime.FlowRule) int64 { return int64(r.ClusterConfig.ThresholdType) }
	flowCases := []flowCase{
		{"grade", `"qps"`, `"qps"`, "", grade, qps},
		{"grade", `"QPS"`, `"QPS"`, "", grade, qps},
		{"grade", `1`, `1`, "", grade, qps},
		{"grade", `"concurrency"`, `"concurrency"`, "", grade, conc},
		{"grade", `0`, `0`, "", grade, conc},
		{"grade", `1.0`, `1.0`, "", grade, qps},
		{"strategy", `"direct"`, `"direct"`, "", strategy, 0},
		{"strategy", `0`, `0`, "", strategy, 0},
		{"strategy", `"relate"`, `"relate"`, `refResource = "other"`, strategy, 1},
		{"strategy", `1`, `1`, `refResource = "other"`, strategy, 1},
		{"strategy", `"Chain"`, `"Chain"`, `refResource = "entrance"`, strategy, 2},
		{"strategy", `2`, `2`, `refResource = "entrance"`, strategy, 2},
		{"controlBehavior", `"reject"`, `"reject"`, "", behavior, 0},
		{"controlBehavior", `0`, `0`, "", behavior, 0},
		{"controlBehavior", `"warmUp"`, `"warmUp"`, "", behavior, 1},
		{"controlBehavior", `"warmup"`, `"warmup"`, "", behavior, 1},
		{"controlBehavior", `1`, `1`, "", behavior, 1},
		{"controlBehavior", `"rateLimiter"`, `"rateLimiter"`, "", behavior, 2},
		{"controlBehavior", `2`, `2`, "", behavior, 2},
		{"controlBehavior", `"warmUpRateLimiter"`, `"warmUpRateLimiter"`, "", behavior, 3},
		{"controlBehavior", `3`, `3`, "", behavior, 3},
		{"thresholdType", `"global"`, `"global"`, "", threshold, 1},
		{"thresholdType", `1`, `1`, "", threshold, 1},
		{"thresholdType", `"avgLocal"`, `"avgLocal"`, "", threshold, 0},
		{"thresholdType", `0`, `0`, "", threshold, 0},
	}
	for _, c := range flowCases {
		tomlText := "[[flow]]\nresource = \"r\"\ncount = 1\n" + c.extra + "\n"
		jsonFields := `"resource": "r", "count": 1`
		if c.extra != "" {
			k, v, _ := strings.Cut(c.extra, " = ")
			jsonFields += `, "` + k + `": ` + v
		}
		if c.key == "thresholdType" {
			tomlText += "clusterConfig = { thresholdType = " + c.tomlValue + " }\n"
			jsonFields += `, "clusterConfig": {"thresholdType": ` + c.jsonValue + `}`
		} else {
			tomlText += c.key + " = " + c.tomlValue + "\n"
			jsonFields += `, "` + c.key + `": ` + c.jsonValue
		}
		for _, doc := range []struct{ name, text string }{{"e.toml", tomlText}, {"flow.json", "[{" + jsonFields + "}]"}} {
			s := mustParseText(t, doc.name, doc.text)
			if got := c.get(s.Flow[0]); got != c.want {
				t.Errorf("%s %s = %s: got %d, want %d", doc.name, c.key, c.tomlValue, got, c.want)
			}
		}
	}

	degradeCases := []struct {
		value string
		want  runtime.DegradeGrade
	}{
		{`"slowRatio"`, 0}, {`"SLOWRATIO"`, 0}, {`0`, 0},
		{`"errorRatio"`, 1}, {`1`, 1},
		{`"errorCount"`, 2}, {`2`, 2},
	}
	for _, c := range degradeCases {
		docs := []struct{ name, text string }{
			{"e.toml", "[[degrade]]\nresource = \"r\"\ncount = 0.5\ntimeWindow = 3\ngrade = " + c.value + "\n"},
			{"degrade.json", `[{"resource": "r", "count": 0.5, "timeWindow": 3, "grade": ` + c.value + `}]`},
		}
		for _, doc := range docs {
			s := mustParseText(t, doc.name, doc.text)
			if got := s.Degrade[0].Grade; got != c.want {
				t.Errorf("%s degrade grade = %s: got %d, want %d", doc.name, c.value, got, c.want)
			}
		}
	}
}

// The native format's duration spellings set the same fields as the
// numeric ones.
func TestTOMLDurationSpellings(t *testing.T) {
	s := mustParseText(t, "d.toml", `
[[flow]]
resource = "a"
controlBehavior = "warmUpRateLimiter"
warmUpPeriod = "1m30s"
maxQueueingTime = "1.5s"
statInterval = "500ms"
clusterConfig = { windowInterval = "2s" }
count = 10

[[degrade]]
resource = "a"
slowCall = "250ms"
timeWindowDuration = "2m"
statInterval = "10s"
`)
	f, d := s.Flow[0], s.Degrade[0]
	if f.WarmUpPeriodSec != 90 || f.MaxQueueingTimeMs != 1500 || f.StatIntervalMs != 500 || f.ClusterConfig.WindowIntervalMs != 2000 {
		t.Errorf("flow = %+v", f)
	}
	if d.Count != 250 || d.TimeWindowSec != 120 || d.StatIntervalMs != 10000 || d.Grade != runtime.DegradeSlowRatio {
		t.Errorf("degrade = %+v", d)
	}
}

// Fields left out get Sentinel 1.8's defaults, the same in both formats.
func TestDefaults(t *testing.T) {
	wantFlow := runtime.FlowRule{Resource: "a", Count: 5, Grade: runtime.FlowGradeQPS, WarmUpPeriodSec: 10,
		MaxQueueingTimeMs: 500, ClusterConfig: runtime.ClusterConfig{FallbackToLocalWhenFail: true}}
	wantDegrade := runtime.DegradeRule{Resource: "a", Count: 100, TimeWindowSec: 3, Grade: runtime.DegradeSlowRatio,
		SlowRatioThreshold: 1, MinRequestAmount: 5, StatIntervalMs: 1000}
	docs := []Document{
		{Name: "d.toml", Data: []byte("[[flow]]\nresource = 'a'\ncount = 5\n[[degrade]]\nresource = 'a'\ncount = 100\ntimeWindow = 3\n")},
		{Name: "d.json", Data: []byte(`{"flow": [{"resource": "a", "count": 5}], "degrade": [{"resource": "a", "count": 100, "timeWindow": 3}]}`)},
		// JSON nulls leave the default in place, as in Sentinel.
		{Name: "d.json", Data: []byte(`{"flow": [{"resource": "a", "count": 5, "grade": null, "clusterConfig": null}],
			"degrade": [{"resource": "a", "count": 100, "timeWindow": 3, "minRequestAmount": null}]}`)},
	}
	for _, doc := range docs {
		s, err := Parse(doc)
		if err != nil {
			t.Fatalf("%s: %v", doc.Name, err)
		}
		if s.Flow[0] != wantFlow {
			t.Errorf("%s: flow = %+v,\nwant %+v", doc.Name, s.Flow[0], wantFlow)
		}
		if s.Degrade[0] != wantDegrade {
			t.Errorf("%s: degrade = %+v,\nwant %+v", doc.Name, s.Degrade[0], wantDegrade)
		}
	}
}

func TestTOMLErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"unknown key with suggestion", "[[flow]]\nresource = 'a'\ncout = 3\ncount = 1\n",
			[]string{`e.toml:3: cout: unknown field; did you mean "count"?`}},
		{"key of another case", "[[flow]]\nresource = 'a'\nRefResource = 'b'\nstrategy = 'relate'\ncount = 1\n",
			[]string{`e.toml:1: refResource: is required for strategy "relate" and "chain": name the related resource or the entrance`,
				`e.toml:3: RefResource: unknown field; did you mean "refResource"?`}},
		{"Sentinel-only key is unknown in TOML", "[[flow]]\nresource = 'a'\nregex = false\ncount = 1\n",
			[]string{`e.toml:3: regex: unknown field`}},
		{"unknown key in cluster config", "[[flow]]\nresource = 'a'\nclusterConfig = { flowID = 3 }\ncount = 1\n",
			[]string{`e.toml:3: clusterConfig.flowID: unknown field; did you mean "flowId"?`}},
		{"two spellings of one field", "[[flow]]\nresource = 'a'\nstatIntervalMs = 500\nstatInterval = '500ms'\ncount = 1\n",
			[]string{`e.toml:4: statInterval: sets the same field as statIntervalMs (e.toml:3); keep one of them`}},
		{"slowCall and count", "[[degrade]]\nresource = 'a'\ncount = 100\nslowCall = '100ms'\ntimeWindow = 1\n",
			[]string{`e.toml:4: slowCall: sets the same field as count (e.toml:3); keep one of them`}},
		{"string for a number", "[[flow]]\nresource = 'a'\ncount = \"abc\"\n",
			[]string{`e.toml:3: count: want a number, found string "abc"`}},
		{"number for a string", "[[flow]]\nresource = 7\ncount = 1\n",
			[]string{`e.toml:2: resource: want a string, found integer 7`}},
		{"string for a boolean", "[[flow]]\nresource = 'a'\nclusterMode = 'yes'\ncount = 1\n",
			[]string{`e.toml:3: clusterMode: want true or false, found string "yes"`}},
		{"date for a number", "[[flow]]\nresource = 'a'\ncount = 1979-05-27\n",
			[]string{`e.toml:3: count: want a number, found a date or time`}},
		{"fraction for an integer", "[[flow]]\nresource = 'a'\nwarmUpPeriodSec = 1.5\ncount = 1\n",
			[]string{`e.toml:3: warmUpPeriodSec: 1.5 is not a whole number`}},
		{"integer out of range", "[[flow]]\nresource = 'a'\nmaxQueueingTimeMs = 3000000000\ncount = 1\n",
			[]string{`e.toml:3: maxQueueingTimeMs: 3000000000 is out of range (-2147483648..2147483647)`}},
		{"relate to itself", "[[flow]]\nresource = 'a'\nstrategy = 'relate'\nrefResource = 'a'\ncount = 1\n",
			[]string{`e.toml:4: refResource: must name another resource for strategy "relate"`}},
		{"duration out of range", "[[flow]]\nresource = 'a'\nwarmUpPeriod = '1000000h'\ncount = 1\n",
			[]string{`e.toml:3: warmUpPeriod: "1000000h" is out of range (at most 2147483647 seconds)`}},
		{"negative count", "[[flow]]\nresource = 'a'\ncount = -3\n",
			[]string{`e.toml:3: count: -3 must be a finite number >= 0`}},
		{"infinite count", "[[flow]]\nresource = 'a'\ncount = inf\n",
			[]string{`e.toml:3: count: +Inf must be a finite number >= 0`}},
		{"unknown enum word", "[[flow]]\nresource = 'a'\ngrade = 'qpss'\ncount = 1\n",
			[]string{`e.toml:3: grade: "qpss" is not a flow grade; use "concurrency" (0) or "qps" (1) (did you mean "qps"?)`}},
		{"enum number out of range", "[[flow]]\nresource = 'a'\ncontrolBehavior = 4\ncount = 1\n",
			[]string{`e.toml:3: controlBehavior: 4 is not a control behavior; use "reject" (0), "warmUp" (1), "rateLimiter" (2) or "warmUpRateLimiter" (3)`}},
		{"enum of the wrong type", "[[degrade]]\nresource = 'a'\ntimeWindow = 1\ngrade = true\ncount = 1\n",
			[]string{`e.toml:4: grade: want "slowRatio" (0), "errorRatio" (1) or "errorCount" (2), found boolean true`}},
		{"a bad value causes no follow-up errors", "[[flow]]\nresource = 'a'\ngrade = 'qpss'\ncontrolBehavior = 'warmUp'\ncount = 1\n",
			[]string{`e.toml:3: grade: "qpss" is not a flow grade; use "concurrency" (0) or "qps" (1) (did you mean "qps"?)`}},
		{"duration not whole seconds", "[[flow]]\nresource = 'a'\nwarmUpPeriod = '1500ms'\ncount = 1\n",
			[]string{`e.toml:3: warmUpPeriod: "1500ms" is not a whole number of seconds`}},
		{"duration not whole milliseconds", "[[flow]]\nresource = 'a'\nstatInterval = '1.5ms'\ncount = 1\n",
			[]string{`e.toml:3: statInterval: "1.5ms" is not a whole number of milliseconds`}},
		{"number for a duration", "[[flow]]\nresource = 'a'\nstatInterval = 500\ncount = 1\n",
			[]string{`e.toml:3: statInterval: want a duration string such as "500ms" (for a number use statIntervalMs), found integer 500`}},
		{"bad duration", "[[degrade]]\nresource = 'a'\ntimeWindowDuration = 'ten seconds'\ncount = 1\n",
			// The refused value is not reported again as a missing time window.
			[]string{`e.toml:3: timeWindowDuration: "ten seconds" is not a duration; write e.g. "10s"`}},
		{"negative duration", "[[flow]]\nresource = 'a'\nmaxQueueingTime = '-1s'\ncount = 1\n",
			[]string{`e.toml:3: maxQueueingTime: "-1s" must not be negative`}},
		{"slowCall for another grade", "[[degrade]]\nresource = 'a'\nslowCall = '100ms'\ngrade = 'errorCount'\ntimeWindow = 1\n",
			[]string{`e.toml:3: slowCall: applies to grade "slowRatio" only; for grade "errorCount" use count`}},
		{"missing resource and time window", "[[degrade]]\ncount = 1\n",
			[]string{`e.toml:1: resource: is empty; name the resource the rule guards`,
				`e.toml:1: timeWindow: 0 must be > 0 (seconds the breaker stays open; required)`}},
		{"behaviour needs QPS", "[[flow]]\nresource = 'a'\ngrade = 'concurrency'\ncontrolBehavior = 'rateLimiter'\ncount = 1\n",
			[]string{`e.toml:4: controlBehavior: other than "reject" needs grade "qps"`}},
		{"error ratio above one", "[[degrade]]\nresource = 'a'\ngrade = 'errorRatio'\ncount = 1.5\ntimeWindow = 1\n",
			[]string{`e.toml:4: count: 1.5 must be an error ratio between 0 and 1`}},
		{"interval with no even split", "[[degrade]]\nresource = 'a'\ntimeWindow = 1\nstatIntervalMs = 1009\ncount = 1\n",
			[]string{`e.toml:4: statIntervalMs: cannot be split into at most 600 equal buckets; use a rounder number`}},
		{"interval for a related rule", "[[flow]]\nresource = 'a'\nstrategy = 'relate'\nrefResource = 'b'\nstatInterval = '2s'\ncount = 1\n",
			[]string{`e.toml:5: statInterval: can only be changed for strategy "direct"`}},
		{"cluster mode needs a flow id", "[[flow]]\nresource = 'a'\nclusterMode = true\ncount = 1\n",
			[]string{`e.toml:1: clusterConfig.flowId: 0 must be > 0 in cluster mode (the id of the rule's budget in the token service)`}},
		{"cluster mode needs QPS and direct", "[[flow]]\nresource = 'a'\ngrade = 0\nclusterMode = true\nclusterConfig = { flowId = -2 }\nstrategy = 'chain'\nrefResource = 'e'\ncount = 1\n",
			[]string{`e.toml:4: clusterMode: needs grade "qps"`,
				`e.toml:4: clusterMode: needs strategy "direct"`,
				`e.toml:5: clusterConfig.flowId: -2 must be > 0 in cluster mode (the id of the rule's budget in the token service)`}},
		{"cluster config not a table", "[[flow]]\nresource = 'a'\nclusterConfig = 3\ncount = 1\n",
			[]string{`e.toml:3: clusterConfig: want a table of flowId, thresholdType, fallbackToLocalWhenFail, windowIntervalMs, windowInterval, found integer 3`}},
		// A half-written file ([[flow]] and resource, count not yet there)
		// must not go into force as count 0, which blocks every call.
		{"flow without count", "[[flow]]\nresource = 'a'\ngrade = 'qps'\n",
			[]string{`e.toml:1: count: missing; every rule needs its threshold (write count = 0 if you mean one that blocks every call)`}},
		{"degrade without count", "[[degrade]]\nresource = 'a'\ntimeWindow = 1\n",
			[]string{`e.toml:1: count: missing; every rule needs its threshold (write count = 0 if you mean one that opens the breaker on the first slow call or error)`}},
		{"inline-array rule without count", "flow = [{ resource = 'a' }]\n",
			[]string{`e.toml:1: count: missing; every rule needs its threshold (write count = 0 if you mean one that blocks every call)`}},
		{"unknown table", "[[flwo]]\nresource = 'a'\n",
			[]string{`e.toml:1: flwo: unknown table; the native format has [[flow]], [[degrade]], [[paramFlow]], [[system]] and [[authority]]; did you mean [[flow]]?`}},
		{"single table", "[flow]\nresource = 'a'\n",
			[]string{`e.toml:1: flow: must be an array of tables: write [[flow]] above each rule`}},
		{"top-level key", "resource = 'a'\n",
			[]string{`e.toml:1: resource: unknown table; the native format has [[flow]], [[degrade]], [[paramFlow]], [[system]] and [[authority]]`}},
		{"array of scalars", "flow = [1]\n",
			[]string{`e.toml:1: flow: element 0 is 1; each rule is a table`}},
		{"every problem of every rule, in order", "[[flow]]\nresource = ''\ncount = -1\n\n[[degrade]]\nresource = 'b'\ntimeWindow = -1\nminRequestAmount = -2\n\n[[flow]]\nresource = 'c'\ncount = 'x'\n",
			[]string{`e.toml:2: resource: is empty; name the resource the rule guards`,
				`e.toml:3: count: -1 must be a finite number >= 0`,
				`e.toml:5: count: missing; every rule needs its threshold (write count = 0 if you mean one that opens the breaker on the first slow call or error)`,
				`e.toml:7: timeWindow: -1 must be > 0 (seconds the breaker stays open; required)`,
				`e.toml:8: minRequestAmount: -2 must be >= 0 (0 means 5)`,
				`e.toml:12: count: want a number, found string "x"`}},
	}
	for _, c := range cases {
		s, err := parseText("e.toml", c.text)
		checkTexts(t, c.name, errorTexts(err), c.want)
		if err != nil && (len(s.Flow) > 0 || len(s.Degrade) > 0) {
			t.Errorf("%s: a failed Parse returned rules", c.name)
		}
	}
}

func TestTOMLSyntaxErrorHasLine(t *testing.T) {
	_, err := parseText("bad.toml", "[[flow]]\nresource = 'a'\ncount = = 3\n")
	errs := Errors(err)
	if len(errs) != 1 || errs[0].Pos != (Position{File: "bad.toml", Line: 3}) || !strings.HasPrefix(errs[0].Msg, "TOML syntax: ") {
		t.Fatalf("err = %v", err)
	}
}

// Lines survive every construct that could confuse a line scanner: comments
// and strings holding brackets, multi-line strings and arrays, inline tables
// over several lines, sub-table headers, dotted and quoted keys, and the
// inline-array form of a rule list.
func TestTOMLPositions(t *testing.T) {
	text := `# [[flow]] in a comment
[[flow]] # first rule
resource = "a[1]" # a string holding '['
"count" = -1
refResource = """
[[degrade]]
  \"""still inside\""" """
strategy = "relate"
note.x = 1

[[ flow ]]
resource = 'b'
clusterConfig = {
  thresholdType = "global",
  flowId = -5,
}
clusterMode = true

[[degrade]]
resource = '''c
]]'''
tags = [
  "x]", # ]
  [1, 2],
]
count = -2
timeWindow = 1

[[degrade]]
resource = "d"
timeWindow.x = 1

[[flow]]
resource = "e"
clusterMode = true
[flow.clusterConfig]
windowIntervalMs = -1
'flowId' = 3
`
	s, err := parseText("p.toml", text)
	checkTexts(t, "errors", errorTexts(err), []string{
		`p.toml:4: count: -1 must be a finite number >= 0`,
		`p.toml:9: note: unknown field`,
		`p.toml:11: count: missing; every rule needs its threshold (write count = 0 if you mean one that blocks every call)`,
		`p.toml:15: clusterConfig.flowId: -5 must be > 0 in cluster mode (the id of the rule's budget in the token service)`,
		`p.toml:22: tags: unknown field`,
		`p.toml:26: count: -2 must be a finite number >= 0`,
		`p.toml:29: count: missing; every rule needs its threshold (write count = 0 if you mean one that opens the breaker on the first slow call or error)`,
		`p.toml:31: timeWindow: want an integer, found a table`,
		`p.toml:33: count: missing; every rule needs its threshold (write count = 0 if you mean one that blocks every call)`,
		`p.toml:37: clusterConfig.windowIntervalMs: -1 must be between 1 and 3600000 (0 means 1000)`,
	})
	if len(s.Flow) != 0 {
		t.Fatal("rules returned with errors")
	}

	// A valid document: the rules' lines are their headers, or the lines of
	// their tables in the inline-array form.
	s = mustParseText(t, "q.toml", `flow = [
  { resource = "a", count = 1 },

  { resource = "b",
    count = 2 },
]

# comment
[[degrade]]
resource = "c"
timeWindow = 1
count = 100
`)
	want := []Position{{File: "q.toml", Line: 2}, {File: "q.toml", Line: 4}}
	if len(s.FlowAt) != 2 || s.FlowAt[0] != want[0] || s.FlowAt[1] != want[1] {
		t.Errorf("FlowAt = %v, want %v", s.FlowAt, want)
	}
	if len(s.DegradeAt) != 1 || s.DegradeAt[0] != (Position{File: "q.toml", Line: 9}) {
		t.Errorf("DegradeAt = %v", s.DegradeAt)
	}
	_, err = parseText("q.toml", "flow = [\n  { resource = 'a', count = 1 },\n  { resource = 'b',\n    count = -2 },\n]\n")
	checkTexts(t, "inline array", errorTexts(err), []string{`q.toml:4: count: -2 must be a finite number >= 0`})
}
