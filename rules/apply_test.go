package rules

import (
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// clearRuntimeRules empties the runtime's rules now and after the test. The
// runtime's rules are global, so tests that apply rules do not run in
// parallel.
func clearRuntimeRules(t *testing.T) {
	t.Helper()
	if err := runtime.LoadRules(runtime.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
}

func TestApplyAndCurrent(t *testing.T) {
	clearRuntimeRules(t)
	s, err := Load("testdata/orders.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(s); err != nil {
		t.Fatal(err)
	}
	cur := Current()
	if !cur.Equal(s) {
		t.Fatalf("Current() = %+v\nwant %+v", cur, s)
	}
	if cur.FlowAt != nil || cur.DegradeAt != nil {
		t.Error("Current() invents positions")
	}
}

// An invalid degrade rule leaves the flow rules in force unchanged: Apply
// puts all kinds in force or none.
func TestApplyIsAtomic(t *testing.T) {
	clearRuntimeRules(t)
	good, err := parseText("good.toml", "[[flow]]\nresource = 'a'\ncount = 10\n[[degrade]]\nresource = 'a'\ntimeWindow = 5\ncount = 100\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(good); err != nil {
		t.Fatal(err)
	}

	bad := Set{
		Flow:      []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 99}},
		Degrade:   []runtime.DegradeRule{{Resource: "a", TimeWindowSec: 0}},
		FlowAt:    []Position{{File: "bad.toml", Line: 1}},
		DegradeAt: []Position{{File: "bad.toml", Line: 5}},
	}
	err = Apply(bad)
	if err == nil || !strings.Contains(err.Error(), "bad.toml:5: timeWindow: 0 must be > 0") {
		t.Fatalf("Apply(bad) = %v", err)
	}
	if flow := runtime.FlowRules(); len(flow) != 1 || flow[0].Count != 10 {
		t.Fatalf("flow rules after a rejected Apply: %+v", flow)
	}
	if !Current().Equal(good) {
		t.Fatalf("Current() = %+v, want the last good set", Current())
	}
}

// allKindsTOML has a rule of every kind.
const allKindsTOML = `[[flow]]
resource = "all.a"
limitApp = "app-a"
count = 10

[[degrade]]
resource = "all.a"
timeWindow = 5
count = 100

[[paramFlow]]
resource = "all.a"
paramIdx = 0
count = 5
paramFlowItemList = [{ object = "hot", classType = "String", count = 1 }]

[[system]]
qps = 1000

[[authority]]
resource = "all.a"
limitApp = "app-a,app-b"
`

// Apply puts every kind in force, and Current gives them all back.
func TestApplyAllKinds(t *testing.T) {
	clearRuntimeRules(t)
	s := mustParseText(t, "all.toml", allKindsTOML)
	if err := Apply(s); err != nil {
		t.Fatal(err)
	}
	cur := Current()
	if !cur.Equal(s) {
		t.Fatalf("Current() = %+v\nwant %+v", cur, s)
	}
	if len(cur.ParamFlow) != 1 || len(cur.System) != 1 || len(cur.Authority) != 1 {
		t.Fatalf("Current() misses kinds: %+v", cur)
	}
}

// A problem in a hot-parameter, system or authority rule keeps every kind as it was.
func TestApplyAllKindsIsAtomic(t *testing.T) {
	clearRuntimeRules(t)
	good := mustParseText(t, "all.toml", allKindsTOML)
	if err := Apply(good); err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*Set){
		"authority": func(s *Set) { s.Authority[0].LimitApp = "" },
		"system":    func(s *Set) { s.System[0].HighestCPUUsage = 50 },
		"param":     func(s *Set) { s.ParamFlow[0].DurationInSec = -1 },
	} {
		bad := mustParseText(t, "all.toml", allKindsTOML)
		bad.Flow[0].Count = 99
		bad.Degrade[0].Count = 99
		mod(&bad)
		if err := Apply(bad); err == nil || !strings.Contains(err.Error(), "all.toml:") {
			t.Errorf("%s: Apply(bad) = %v, want an error at its line", name, err)
		}
		if !Current().Equal(good) {
			t.Errorf("%s: rules changed by a refused Apply: %+v", name, Current())
		}
	}
}

// A parameter name that cannot be resolved is an error at the rule's line,
// and nothing changes.
func TestApplyUnknownParamName(t *testing.T) {
	clearRuntimeRules(t)
	s := mustParseText(t, "p.toml", "[[flow]]\nresource = 'pn.a'\ncount = 1\n\n[[paramFlow]]\nresource = 'pn.a'\nparam = 'sku'\ncount = 5\n")
	err := Apply(s)
	if err == nil || !strings.HasPrefix(err.Error(), `p.toml:5: param: `) || !strings.Contains(err.Error(), `"sku"`) {
		t.Fatalf("Apply = %v", err)
	}
	if len(runtime.FlowRules()) != 0 {
		t.Error("flow rules applied beside an unresolved parameter")
	}
}

// A parameter name resolves to its index among the names the resource was
// declared with (as generated code declares them), and a name it does not
// have is an error at the rule's line with a suggestion.
func TestApplyResolvesParamNames(t *testing.T) {
	clearRuntimeRules(t)
	runtime.NewResource("pn.detail", runtime.WithParamNames("region", "sku"))
	s := mustParseText(t, "p.toml", "[[paramFlow]]\nresource = 'pn.detail'\nparam = 'sku'\ncount = 5\n")
	if err := Apply(s); err != nil {
		t.Fatal(err)
	}
	if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].ParamIdx != 1 {
		t.Fatalf("rules in force %+v, want ParamIdx 1", got)
	}
	if s.ParamFlow[0].ParamIdx != 0 {
		t.Error("Apply changed the caller's set")
	}

	typo := mustParseText(t, "p.toml", "[[flow]]\nresource = 'pn.detail'\ncount = 1\n\n[[paramFlow]]\nresource = 'pn.detail'\nparam = 'skus'\ncount = 5\n")
	err := Apply(typo)
	want := `p.toml:5: param: resource "pn.detail" has no parameter "skus"; its parameters are region, sku (did you mean "sku"?)`
	if err == nil || err.Error() != want {
		t.Fatalf("Apply = %v\nwant %s", err, want)
	}
	if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].ParamIdx != 1 || len(runtime.FlowRules()) != 0 {
		t.Error("rules changed by a refused Apply")
	}
}
