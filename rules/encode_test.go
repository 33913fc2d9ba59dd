package rules

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// randomSet builds a set of rules with every field drawn at random from
// values that make valid rules more often than not, including the awkward
// ones for an encoder: quotes, backslashes, control characters and non-ASCII
// in names, fractions, zero and default values. Invalid rules are dropped.
func randomSet(r *rand.Rand) Set {
	names := []string{"a", "createOrder", `say "hi"`, `back\slash`, "tab\tand\nnewline", "ünïcødé 订单", "#[[flow]]", "'single'", "\x01ctl"}
	name := func() string { return names[r.IntN(len(names))] }
	pick := func(vs ...int) int { return vs[r.IntN(len(vs))] }
	fracs := []float64{0, 0.25, 0.5, 1, 3, 10, 100.5, 1e6, 1.0 / 3, 12345.678}
	var s Set
	for range r.IntN(5) {
		f := runtime.FlowRule{
			Resource:          name(),
			Grade:             runtime.FlowGrade(r.IntN(2)),
			Count:             fracs[r.IntN(len(fracs))],
			Strategy:          runtime.FlowStrategy(r.IntN(3)),
			ControlBehavior:   runtime.ControlBehavior(r.IntN(4)),
			WarmUpPeriodSec:   pick(0, 1, 10, 30),
			ColdFactor:        pick(0, 2, 3, 5),
			MaxQueueingTimeMs: pick(0, 200, 500),
			StatIntervalMs:    pick(0, 500, 1000, 2000),
			LimitApp:          []string{"", "default", "other", "app-a", `q"uote`}[r.IntN(5)],
			ClusterMode:       r.IntN(3) == 0,
			ClusterConfig: runtime.ClusterConfig{
				FlowID:                  int64(pick(0, 1, 77)),
				ThresholdType:           runtime.ThresholdType(r.IntN(2)),
				FallbackToLocalWhenFail: r.IntN(2) == 0,
				WindowIntervalMs:        pick(0, 1000, 2000),
			},
		}
		if f.Strategy != runtime.StrategyDirect {
			f.RefResource = name()
		}
		if runtime.ValidateFlowRules([]runtime.FlowRule{f}) == nil {
			s.Flow = append(s.Flow, f)
		}
	}
	for range r.IntN(5) {
		d := runtime.DegradeRule{
			Resource:           name(),
			Grade:              runtime.DegradeGrade(r.IntN(3)),
			Count:              fracs[r.IntN(len(fracs))],
			SlowRatioThreshold: fracs[r.IntN(4)],
			TimeWindowSec:      pick(1, 10, 60),
			MinRequestAmount:   pick(0, 1, 5, 20),
			StatIntervalMs:     pick(0, 1000, 5000, 60000),
		}
		if runtime.ValidateDegradeRules([]runtime.DegradeRule{d}) == nil {
			s.Degrade = append(s.Degrade, d)
		}
	}
	if r.IntN(2) == 0 {
		addRandomFamilies(r, &s, name, pick, fracs)
	}
	return s
}

// addRandomFamilies adds param-flow, system and authority rules to s.
func addRandomFamilies(r *rand.Rand, s *Set, name func() string, pick func(...int) int, fracs []float64) {
	for range r.IntN(4) {
		p := runtime.ParamFlowRule{
			Resource:          name(),
			Grade:             []runtime.FlowGrade{runtime.FlowGradeQPS, runtime.FlowGradeConcurrency}[r.IntN(2)],
			ParamIdx:          pick(0, 1, 2, -1),
			Count:             float64(pick(0, 1, 5, 100)),
			ControlBehavior:   []runtime.ControlBehavior{runtime.BehaviorReject, runtime.BehaviorRateLimiter}[r.IntN(2)],
			MaxQueueingTimeMs: pick(0, 0, 500),
			BurstCount:        pick(0, 0, 3),
			DurationInSec:     pick(0, 1, 2, 60),
			ClusterMode:       r.IntN(4) == 0,
			ClusterConfig:     runtime.ClusterConfig{FlowID: int64(pick(0, 9)), FallbackToLocalWhenFail: r.IntN(3) == 0},
		}
		for range r.IntN(3) {
			p.Items = append(p.Items, runtime.ParamFlowItem{Object: name(), ClassType: []string{"", "String", "int", "long"}[r.IntN(4)], Count: pick(0, 1, 50)})
		}
		if runtime.ValidateParamFlowRules([]runtime.ParamFlowRule{p}) == nil {
			s.ParamFlow = append(s.ParamFlow, p)
		}
	}
	unsetOr := func(vs ...float64) float64 { return []float64{-1, vs[r.IntN(len(vs))]}[r.IntN(2)] }
	for range r.IntN(3) {
		sys := runtime.SystemRule{HighestSystemLoad: unsetOr(0, 2.5, 8), HighestCPUUsage: unsetOr(0, 0.5, 0.8, 1),
			QPS: unsetOr(fracs...), AvgRT: int64(unsetOr(0, 10, 500)), MaxThread: int64(unsetOr(0, 1, 100))}
		if sys.QPS < 0 && sys.AvgRT < 0 && sys.MaxThread < 0 {
			sys.MaxThread = 10 // a rule that sets nothing reads back with a warning
		}
		if runtime.ValidateSystemRules([]runtime.SystemRule{sys}) == nil {
			s.System = append(s.System, sys)
		}
	}
	for range r.IntN(3) {
		a := runtime.AuthorityRule{Resource: name(), LimitApp: []string{"app-a", "app-a,app-b", "订单,b"}[r.IntN(3)],
			Strategy: runtime.AuthorityStrategy(r.IntN(2))}
		if runtime.ValidateAuthorityRules([]runtime.AuthorityRule{a}) == nil {
			s.Authority = append(s.Authority, a)
		}
	}
}

// Parse(Encode(s)) is Equal to s, for both formats.
func TestEncodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	kinds := map[string]int{}
	for i := range 500 {
		s := randomSet(r)
		present := 0
		for k, n := range map[string]int{"flow": len(s.Flow), "degrade": len(s.Degrade), "param-flow": len(s.ParamFlow), "system": len(s.System), "authority": len(s.Authority)} {
			if n > 0 {
				present++
				kinds[k]++
			}
		}
		if present > 1 {
			kinds["mixed"]++
		} else if present == 1 {
			kinds["single"]++
		}
		for _, f := range []Format{FormatTOML, FormatJSON} {
			data, err := Encode(s, f)
			if err != nil {
				t.Fatalf("set %d: Encode(%v): %v", i, f, err)
			}
			back, err := Parse(Document{Name: "round-trip", Data: data, Format: f})
			if err != nil {
				t.Fatalf("set %d: Parse(Encode(%v)): %v\n%s", i, f, err, data)
			}
			if !back.Equal(s) {
				t.Fatalf("set %d: Parse(Encode(%v)) differs:\n%s\n got  %+v\n want %+v", i, f, data, back, s)
			}
			if len(back.Warnings) != 0 {
				t.Fatalf("set %d: reading back %v warns: %v", i, f, warningTexts(back))
			}
			again, _ := Encode(back, f)
			if !bytes.Equal(again, data) {
				t.Fatalf("set %d: encoding %v is not stable:\n%s\n%s", i, f, data, again)
			}
		}
	}
	// The generator must reach every shape, or the property says little.
	for _, k := range []string{"mixed", "single", "flow", "degrade", "param-flow", "system", "authority"} {
		if kinds[k] < 20 {
			t.Errorf("only %d %s sets generated", kinds[k], k)
		}
	}
}

// A Sentinel JSON document of one kind is a plain array, as Sentinel
// expects; Java reads numbers for enums and every field by its Sentinel name.
func TestEncodeJSONShapes(t *testing.T) {
	flowOnly := Set{Flow: []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 5, ControlBehavior: runtime.BehaviorWarmUp,
		WarmUpPeriodSec: 7, ClusterConfig: runtime.ClusterConfig{FallbackToLocalWhenFail: true}}}}
	data, err := Encode(flowOnly, FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	var arr []map[string]any
	if err := json.Unmarshal(data, &arr); err != nil {
		t.Fatalf("flow-only set is not an array: %v\n%s", err, data)
	}
	want := map[string]any{"resource": "a", "limitApp": "default", "grade": 1.0, "count": 5.0, "strategy": 0.0,
		"controlBehavior": 1.0, "warmUpPeriodSec": 7.0, "maxQueueingTimeMs": 0.0, "clusterMode": false}
	if len(arr) != 1 || len(arr[0]) != len(want) {
		t.Fatalf("encoded %s", data)
	}
	for k, v := range want {
		if arr[0][k] != v {
			t.Errorf("%s = %v, want %v", k, arr[0][k], v)
		}
	}
	// A cluster config that differs from Sentinel's default is written even
	// outside cluster mode, so it survives a round trip.
	flowOnly.Flow[0].ClusterConfig.FallbackToLocalWhenFail = false
	data, _ = Encode(flowOnly, FormatJSON)
	if !bytes.Contains(data, []byte(`"fallbackToLocalWhenFail": false`)) {
		t.Errorf("cluster config left out:\n%s", data)
	}

	degradeOnly := Set{Degrade: []runtime.DegradeRule{{Resource: "<b&c>", Count: 1, TimeWindowSec: 2}}}
	data, err = Encode(degradeOnly, FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("[")) || !bytes.Contains(data, []byte(`"<b&c>"`)) {
		t.Errorf("degrade-only set: %s", data)
	}
	// With no name to go by, the kind is told by the fields written.
	back, err := Parse(Document{Name: "nacos-key", Data: data})
	if err != nil || !back.Equal(degradeOnly) {
		t.Errorf("degrade-only set read back as %+v, %v", back, err)
	}

	data, err = Encode(Set{}, FormatJSON)
	if err != nil || strings.TrimSpace(string(data)) != "[]" {
		t.Errorf("empty set = %q, %v", data, err)
	}
	data, err = Encode(Set{}, FormatTOML)
	if err != nil || len(data) != 0 {
		t.Errorf("empty set in TOML = %q, %v", data, err)
	}
}

func TestEncodeErrors(t *testing.T) {
	nan := Set{Flow: []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: math.NaN()}}}
	if _, err := Encode(nan, FormatJSON); err == nil {
		t.Error("NaN encoded as Sentinel JSON")
	}
	// TOML can hold it, and reading it back reports the bad count.
	data, err := Encode(nan, FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(Document{Name: "nan.toml", Data: data})
	checkTexts(t, "NaN read back", errorTexts(err), []string{"nan.toml:3: count: NaN must be a finite number >= 0"})

	inf := Set{Flow: []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: math.Inf(1)}},
		Degrade: []runtime.DegradeRule{{Resource: "a", Count: math.Inf(-1), SlowRatioThreshold: math.Copysign(0, -1), TimeWindowSec: 1}}}
	data, err = Encode(inf, FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(Document{Name: "inf.toml", Data: data})
	checkTexts(t, "infinities read back", errorTexts(err), []string{
		"inf.toml:3: count: +Inf must be a finite number >= 0",
		"inf.toml:10: count: -Inf must be a finite number >= 0", // after the flow rule's non-default zero fields
	})

	badUTF8 := Set{Degrade: []runtime.DegradeRule{{Resource: "a\xff"}}}
	for _, f := range []Format{FormatTOML, FormatJSON} {
		if _, err := Encode(badUTF8, f); err == nil || !strings.Contains(err.Error(), "UTF-8") {
			t.Errorf("Encode(%v) of invalid UTF-8: %v", f, err)
		}
	}
	if _, err := Encode(Set{}, Format(5)); err == nil {
		t.Error("unknown format encoded")
	}
}

// An enum value with no name (a rule built in code) is written as its
// number, so reading the file back reports it instead of guessing.
func TestEncodeInvalidEnumKeepsNumber(t *testing.T) {
	s := Set{Flow: []runtime.FlowRule{{Resource: "a", Grade: 7}}}
	data, err := Encode(s, FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("grade = 7\n")) {
		t.Fatalf("encoded:\n%s", data)
	}
	_, err = Parse(Document{Name: "x.toml", Data: data})
	checkTexts(t, "read back", errorTexts(err), []string{`x.toml:3: grade: 7 is not a flow grade; use "concurrency" (0) or "qps" (1)`})
}

// The native format's layout: one table per rule, a blank line between
// tables (also between the last flow and the first degrade table), grade
// only when it is not the default, resource and count always.
func TestEncodeTOMLLayout(t *testing.T) {
	cluster := runtime.ClusterConfig{FallbackToLocalWhenFail: true} // Sentinel's default
	s := Set{
		Flow: []runtime.FlowRule{
			{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 10, WarmUpPeriodSec: 10, MaxQueueingTimeMs: 500, ClusterConfig: cluster},
			{Resource: "b", Grade: runtime.FlowGradeConcurrency, Count: 4, WarmUpPeriodSec: 10, MaxQueueingTimeMs: 500, ClusterConfig: cluster},
		},
		Degrade: []runtime.DegradeRule{
			{Resource: "a", Grade: runtime.DegradeErrorCount, Count: 3, SlowRatioThreshold: 1, TimeWindowSec: 5, MinRequestAmount: 20},
		},
	}
	want := `[[flow]]
resource = "a"
count = 10

[[flow]]
resource = "b"
grade = "concurrency"
count = 4

[[degrade]]
resource = "a"
grade = "errorCount"
count = 3
timeWindow = 5
minRequestAmount = 20
`
	data, err := Encode(s, FormatTOML)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != want {
		t.Errorf("got\n%s\nwant\n%s", data, want)
	}
	only, _ := Encode(Set{Degrade: s.Degrade}, FormatTOML)
	if !strings.HasPrefix(string(only), "[[degrade]]\n") {
		t.Errorf("a degrade-only set starts with %q, want the table header", only)
	}
}
