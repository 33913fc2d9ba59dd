package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestApplyRefusesParamRulesThatNeverApply: a param-flow rule on an index
// past the parameters the generated code declared, or on a parameter whose
// type gives no key, is refused at its line with the linter's reason, and
// the rules in force stay; resources declared without key kinds are not
// checked.
func TestApplyRefusesParamRulesThatNeverApply(t *testing.T) {
	clearRuntimeRules(t)
	runtime.NewResource("pk.create", runtime.WithParamNames("sku", "req"),
		runtime.WithParamKeys(runtime.ParamKeyString, runtime.ParamNoKey))
	runtime.NewResource("pk.ping", runtime.WithParamKeys())
	runtime.NewResource("pk.old", runtime.WithParamNames("sku"))

	good := mustParseText(t, "p.toml", "[[paramFlow]]\nresource = 'pk.create'\nparamIdx = 0\ncount = 5\n")
	if err := Apply(good); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ rule, want string }{
		{"paramIdx = 2", `p.toml:1: paramIdx: paramIdx 2 is out of range: resource "pk.create" has 2 parameters after ctx, sku (0), req (1) (negative indexes count from the end, down to -2), so the rule never applies`},
		{"paramIdx = -3", `p.toml:1: paramIdx: paramIdx -3 is out of range`},
		{"paramIdx = 1", `p.toml:1: paramIdx: parameter req (paramIdx 1) cannot be a hot-parameter key, so the rule never blocks: keys are strings, integers, floats, bools, slices of those, and types with a method ParamFlowKey() string`},
		{"paramIdx = -1", `parameter req (paramIdx 1) cannot be a hot-parameter key`},
		{"param = 'req'", `p.toml:1: param: parameter req (paramIdx 1) cannot be a hot-parameter key`},
	} {
		doc := fmt.Sprintf("[[paramFlow]]\nresource = 'pk.create'\n%s\ncount = 5\n", c.rule)
		err := Apply(mustParseText(t, "p.toml", doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Apply = %v\nwant %s", c.rule, err, c.want)
		}
		if got := runtime.ParamFlowRules(); len(got) != 1 || got[0].ParamIdx != 0 {
			t.Errorf("%s: rules in force %+v after a refused Apply, want the last good one", c.rule, got)
		}
	}

	ping := mustParseText(t, "p.json", `{"paramFlow": [{"resource": "pk.ping", "paramIdx": 0, "count": 5}]}`)
	want := `paramIdx 0 selects nothing: resource "pk.ping" has no parameters after ctx, so the rule never applies`
	if err := Apply(ping); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("rule on a method without parameters: Apply = %v, want %s", err, want)
	}
	if _, err := Resolve(ping); err == nil {
		t.Error("Resolve accepted a rule Apply refuses")
	}

	old := mustParseText(t, "p.toml", "[[paramFlow]]\nresource = 'pk.old'\nparamIdx = 7\ncount = 5\n")
	if err := Apply(old); err != nil {
		t.Errorf("a resource declared without key kinds is checked: %v", err)
	}
}
