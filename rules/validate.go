package rules

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Validate checks every rule of s as the runtime will when it is applied and
// returns all problems, joined:
// each an *Error at the rule's position (for JSON, the field's path) naming
// the field as documents spell it. A rule without a position is named by its
// place in s, e.g. "flow[2].count".
func Validate(s Set) error {
	return validate(s, nil)
}

// runtimeErrors is what the runtime's validators say about s, every kind.
func runtimeErrors(s Set) []*runtime.RuleError {
	var out []*runtime.RuleError
	for _, err := range []error{
		runtime.ValidateFlowRules(s.Flow),
		runtime.ValidateDegradeRules(s.Degrade),
		runtime.ValidateParamFlowRules(s.ParamFlow),
		runtime.ValidateSystemRules(s.System),
		runtime.ValidateAuthorityRules(s.Authority),
	} {
		out = append(out, ruleErrors(err)...)
	}
	return out
}

// ruleKind maps a RuleError's Kind to the document kind. The runtime's
// spelling of the hot-parameter, system and authority kinds is matched loosely (param-flow, paramFlow,
// "param flow"), so a change of wording there does not lose positions here.
func ruleKind(kind string) Kind {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(kind))
	for _, c := range allKinds {
		if strings.ReplaceAll(string(c), "-", "") == k {
			return c
		}
	}
	if k == "hotparam" || k == "param" {
		return KindParamFlow
	}
	return KindFlow
}

// validate is Validate with the sites where Parse read each field, so errors
// point at the key's line and use the spelling the document used.
func validate(s Set, sites map[Kind][]ruleSites) error {
	ruleErrs := runtimeErrors(s)
	// Report in document order: kinds in Set's order, each rule's problems
	// together.
	slices.SortStableFunc(ruleErrs, func(a, b *runtime.RuleError) int {
		return cmp.Or(cmp.Compare(slices.Index(allKinds, ruleKind(a.Kind)), slices.Index(allKinds, ruleKind(b.Kind))), cmp.Compare(a.Index, b.Index))
	})
	var errs []error
	for _, re := range ruleErrs {
		k := ruleKind(re.Kind)
		rulePos := positionAt(positionsOf(s, k), re.Index, tomlTable(k))
		ruleSites := siteAt(sites[k], re.Index)
		key := documentKey(k, re.Field)
		if key == "" { // a field this package does not know: keep the runtime's name
			key = re.Field
		}
		pos := fieldPosition(rulePos, key)
		if st, ok := ruleSites[re.Field]; ok {
			if st.failed { // already reported as a bad value
				continue
			}
			key, pos = st.key, st.pos
		}
		errs = append(errs, &Error{Pos: pos, Field: key, Msg: explain(re)})
	}
	errs = append(errs, validateGateway(s)...)
	return errors.Join(errs...)
}

// positionsOf is the position list of kind k in s.
func positionsOf(s Set, k Kind) []Position {
	switch k {
	case KindDegrade:
		return s.DegradeAt
	case KindParamFlow:
		return s.ParamFlowAt
	case KindSystem:
		return s.SystemAt
	case KindAuthority:
		return s.AuthorityAt
	}
	return s.FlowAt
}

// ruleErrors flattens a joined error of *runtime.RuleError values; anything
// else becomes a RuleError without a field so it is still reported.
func ruleErrors(err error) []*runtime.RuleError {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*runtime.RuleError
		for _, e := range j.Unwrap() {
			out = append(out, ruleErrors(e)...)
		}
		return out
	}
	var re *runtime.RuleError
	if errors.As(err, &re) {
		return []*runtime.RuleError{re}
	}
	return []*runtime.RuleError{{Kind: "flow", Index: -1, Reason: err.Error()}}
}

// documentKey maps a rule's runtime field path ("Count",
// "ClusterConfig.FlowID", "Items[2].Count") to its document key, "" when
// the field is not one a document sets.
func documentKey(k Kind, goField string) string {
	if sub, ok := strings.CutPrefix(goField, "ClusterConfig."); ok && (k == KindFlow || k == KindParamFlow) {
		if key := goToKey(clusterFields, sub); key != "" {
			return "clusterConfig." + key
		}
		return ""
	}
	switch k {
	case KindFlow:
		return goToKey(flowFields, goField)
	case KindDegrade:
		return goToKey(degradeFields, goField)
	case KindSystem:
		return goToKey(systemFields, goField)
	case KindAuthority:
		return goToKey(authorityFields, goField)
	}
	// Items[i] or Items[i].Field
	if rest, ok := strings.CutPrefix(goField, "Items["); ok {
		idx, sub, _ := strings.Cut(rest, "]")
		key := "paramFlowItemList[" + idx + "]"
		if sub, ok := strings.CutPrefix(sub, "."); ok {
			if k := goToKey(paramItemFields, sub); k != "" {
				return key + "." + k
			}
		}
		return key
	}
	return goToKey(paramFlowFields, goField)
}

// positionAt returns where rule i was read; rules built in code are named by
// their place in the set.
func positionAt(at []Position, i int, kind string) Position {
	if i >= 0 && i < len(at) && !at[i].IsZero() {
		return at[i]
	}
	if i < 0 {
		return Position{}
	}
	return Position{Path: kind + "[" + strconv.Itoa(i) + "]"}
}

func siteAt(sites []ruleSites, i int) ruleSites {
	if i >= 0 && i < len(sites) {
		return sites[i]
	}
	return nil
}

// fieldPosition is where a field of a rule read at rulePos is: its JSON path
// when the rule has one, else the rule's own position (a TOML rule's header
// when the field was left out).
func fieldPosition(rulePos Position, key string) Position {
	if rulePos.Path != "" && key != "" {
		rulePos.Path += "." + key
	}
	return rulePos
}

// explain turns the runtime's reason into the documents' words; reasons it
// does not know are kept as they are.
func explain(re *runtime.RuleError) string {
	if s, ok := rewordings[re.Field+" "+re.Reason]; ok {
		return s
	}
	if s, ok := hints[re.Kind+"."+re.Field]; ok {
		return re.Reason + s
	}
	return re.Reason
}

var rewordings = map[string]string{
	"Resource is empty": "is empty; name the resource the rule guards",
	"ControlBehavior other than reject needs Grade QPS":              `other than "reject" needs grade "qps"`,
	"RefResource is required for the relate and chain strategies":    `is required for strategy "relate" and "chain": name the related resource or the entrance`,
	"RefResource must be empty for the direct strategy":              `must be empty for strategy "direct"`,
	"RefResource must name another resource for the relate strategy": `must name another resource for strategy "relate"`,
	"StatIntervalMs can only be changed for the direct strategy":     `can only be changed for strategy "direct"`,
	"ClusterMode needs Grade QPS":                                    `needs grade "qps"`,
	"ClusterMode needs the direct strategy":                          `needs strategy "direct"`,
}

var hints = map[string]string{
	"degrade.TimeWindowSec":     " (seconds the breaker stays open; required)",
	"flow.WarmUpPeriodSec":      " (seconds the warm-up lasts)",
	"flow.ClusterConfig.FlowID": " (the id of the rule's budget in the token service)",
}
