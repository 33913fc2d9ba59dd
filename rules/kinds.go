package rules

import (
	"slices"
	"strings"
)

// The rule kinds a document may hold, in the order Set lists them and the
// encoder writes them. Sentinel JSON names a kind as Spring Cloud Alibaba
// does (param-flow); the native format's tables are lowerCamel (paramFlow).
var allKinds = []Kind{KindFlow, KindDegrade, KindParamFlow, KindSystem, KindAuthority}

// tomlTable is the native format's table name of kind k.
func tomlTable(k Kind) string {
	if k == KindParamFlow {
		return "paramFlow"
	}
	return string(k)
}

// kindOfTable is the kind whose native table is name, KindAuto for none.
func kindOfTable(name string) Kind {
	for _, k := range allKinds {
		if tomlTable(k) == name {
			return k
		}
	}
	return KindAuto
}

// kindOfJSONKey is the kind an object form's key names: the Kind itself, or
// the native table name (paramFlow), which a hand-written object may use.
func kindOfJSONKey(key string) Kind {
	for _, k := range allKinds {
		if string(k) == key || tomlTable(k) == key {
			return k
		}
	}
	return KindAuto
}

// kindFromName finds the one kind the last element of name mentions.
// "param-flow", "param_flow", "paramflow" and "hotspot" are param-flow
// evidence and not flow evidence; a name mentioning two kinds tells nothing.
func kindFromName(name string) Kind {
	if i := strings.LastIndexAny(name, `/\:`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ToLower(name)
	var found []Kind
	for _, w := range []string{"param-flow", "param_flow", "paramflow", "param.flow", "hotspot"} {
		if strings.Contains(name, w) {
			found = append(found, KindParamFlow)
			name = strings.ReplaceAll(name, w, " ")
		}
	}
	for _, k := range []Kind{KindFlow, KindDegrade, KindSystem, KindAuthority} {
		if strings.Contains(name, string(k)) {
			found = append(found, k)
		}
	}
	return onlyKind(found)
}

// onlyKind is the kind that alone has evidence for it: KindAuto when none
// has or several have, which is no better.
func onlyKind(evidence []Kind) Kind {
	slices.Sort(evidence)
	evidence = slices.Compact(evidence)
	if len(evidence) != 1 {
		return KindAuto
	}
	return evidence[0]
}

// Keys that tell a Sentinel JSON rule's kind from its fields. Param-flow
// rules share controlBehavior, maxQueueingTimeMs and clusterMode with flow
// rules, so their own keys win over flow's; an authority rule has only
// resource, limitApp and strategy, which flow rules have too, so a record is
// taken for one when it has strategy and limitApp and none of the keys a flow
// rule needs (count, grade) or has alone.
var (
	flowOnlyKeys      = []string{"strategy", "refResource", "controlBehavior", "warmUpPeriodSec", "maxQueueingTimeMs", "clusterMode", "clusterConfig", "coldFactor"}
	degradeOnlyKeys   = []string{"timeWindow", "slowRatioThreshold", "minRequestAmount"}
	paramFlowOnlyKeys = []string{"paramIdx", "paramFlowItemList", "burstCount", "durationInSec"}
	systemOnlyKeys    = []string{"highestSystemLoad", "highestCpuUsage", "qps", "avgRt", "maxThread"}
	flowRuleKeys      = append([]string{"count", "grade"}, flowOnlyKeys[1:]...) // all but strategy
)

// kindOfRecord says which kind rec's keys belong to: KindAuto when it has
// keys of none or of several kinds.
func kindOfRecord(rec *record) Kind {
	has := func(keys []string) bool {
		return slices.ContainsFunc(rec.entries, func(e entry) bool { return slices.Contains(keys, e.key) })
	}
	var found []Kind
	switch {
	case has(paramFlowOnlyKeys):
		found = append(found, KindParamFlow)
	case has(flowOnlyKeys):
		if has([]string{"strategy"}) && has([]string{"limitApp"}) && !has(flowRuleKeys) {
			found = append(found, KindAuthority)
		} else {
			found = append(found, KindFlow)
		}
	}
	if has(degradeOnlyKeys) {
		found = append(found, KindDegrade)
	}
	if has(systemOnlyKeys) {
		found = append(found, KindSystem)
	}
	return onlyKind(found)
}

// Kinds returns every rule kind a Set holds, in the order Set lists them
// and Encode writes them: flow, degrade, param-flow, system, authority.
func Kinds() []Kind { return slices.Clone(allKinds) }

// Only returns the rules of kind k in s, with their positions (and, for
// param-flow, their parameter names); warnings are left out.
func (s Set) Only(k Kind) Set {
	switch k {
	case KindFlow:
		return Set{Flow: s.Flow, FlowAt: s.FlowAt}
	case KindDegrade:
		return Set{Degrade: s.Degrade, DegradeAt: s.DegradeAt}
	case KindParamFlow:
		return Set{ParamFlow: s.ParamFlow, ParamFlowAt: s.ParamFlowAt, ParamFlowParam: s.ParamFlowParam}
	case KindSystem:
		return Set{System: s.System, SystemAt: s.SystemAt}
	case KindAuthority:
		return Set{Authority: s.Authority, AuthorityAt: s.AuthorityAt}
	}
	return Set{}
}
