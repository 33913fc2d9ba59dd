package conformance

import (
	"math"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// loadFamilies loads the param-flow, system and authority rules a rules
// event carries, each kind read by the rules package from Sentinel JSON and
// put in force by its own loader, as the Java side does with
// ParamFlowRuleManager, SystemRuleManager and AuthorityRuleManager.
func loadFamilies(ev event) error {
	parse := func(data []byte, k rules.Kind) (rules.Set, error) {
		return rules.Parse(rules.Document{Name: "scenario-" + string(k) + ".json", Data: data, Format: rules.FormatJSON, Kind: k})
	}
	if ev.ParamFlow != nil {
		s, err := parse(ev.ParamFlow, rules.KindParamFlow)
		if err == nil {
			err = runtime.LoadParamFlowRules(s.ParamFlow)
		}
		if err != nil {
			return err
		}
	}
	if ev.System != nil {
		s, err := parse(ev.System, rules.KindSystem)
		if err == nil {
			err = runtime.LoadSystemRules(s.System)
		}
		if err != nil {
			return err
		}
	}
	if ev.Authority != nil {
		s, err := parse(ev.Authority, rules.KindAuthority)
		if err == nil {
			err = runtime.LoadAuthorityRules(s.Authority)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// paramArgs turns a scenario's args (JSON values) into the typed keys
// generated code would pass: strings, whole numbers as integers (Java's
// fastjson makes them Integer or Long), other numbers as floats, booleans;
// an array of strings or numbers is a slice argument, checked element by
// element on both sides.
func paramArgs(args []any) []runtime.ParamArg {
	if len(args) == 0 {
		return nil
	}
	out := make([]runtime.ParamArg, len(args))
	for i, a := range args {
		out[i] = paramArg(a)
	}
	return out
}

func paramArg(a any) runtime.ParamArg {
	switch v := a.(type) {
	case string:
		return runtime.StringArg(v)
	case bool:
		return runtime.BoolArg(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return runtime.IntArg(int64(v))
		}
		return runtime.FloatArg(v)
	case []any:
		var ss []string
		var ns []int64
		for _, e := range v {
			switch e := e.(type) {
			case string:
				ss = append(ss, e)
			case float64:
				ns = append(ns, int64(e))
			}
		}
		if len(ns) > 0 {
			return runtime.IntsArg(ns)
		}
		return runtime.StringsArg(ss)
	}
	return runtime.ParamArg{}
}

// blockFamily names a block by one of the new kinds as the Java side does:
// "block param-flow value=V" (ParamFlowException.getLimitParam), "block
// system qps" (SystemBlockException.getLimitType), "block authority".
func blockFamily(be *runtime.BlockError) string {
	switch be.Type() {
	case runtime.BlockTypeParamFlow:
		return "block param-flow value=" + be.Value()
	case runtime.BlockTypeSystem:
		// The rule text is "system <metric> <threshold>".
		f := strings.Fields(be.Rule())
		if len(f) >= 2 {
			return "block system " + f[1]
		}
		return "block system ?" + be.Rule()
	}
	return "block authority"
}
