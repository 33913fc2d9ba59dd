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
	return validate(s, nil, nil)
}

// validate is Validate with the sites where Parse read each field, so errors
// point at the key's line and use the spelling the document used.
func validate(s Set, flowSites, degradeSites []ruleSites) error {
	var ruleErrs []*runtime.RuleError
	for _, err := range []error{runtime.ValidateFlowRules(s.Flow), runtime.ValidateDegradeRules(s.Degrade)} {
		ruleErrs = append(ruleErrs, ruleErrors(err)...)
	}
	// Report in document order: flow rules first, each rule's problems
	// together.
	slices.SortStableFunc(ruleErrs, func(a, b *runtime.RuleError) int {
		return cmp.Or(cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.Index, b.Index))
	})
	var errs []error
	for _, re := range ruleErrs {
		var (
			rulePos Position
			sites   ruleSites
			key     string
		)
		switch re.Kind {
		case "flow":
			rulePos, sites = positionAt(s.FlowAt, re.Index, "flow"), siteAt(flowSites, re.Index)
			key = flowKey(re.Field)
		default:
			rulePos, sites = positionAt(s.DegradeAt, re.Index, "degrade"), siteAt(degradeSites, re.Index)
			key = goToKey(degradeFields, re.Field)
		}
		if key == "" { // a field this package does not know: keep the runtime's name
			key = re.Field
		}
		pos := fieldPosition(rulePos, key)
		if st, ok := sites[re.Field]; ok {
			if st.failed { // already reported as a bad value
				continue
			}
			key, pos = st.key, st.pos
		}
		errs = append(errs, &Error{Pos: pos, Field: key, Msg: explain(re)})
	}
	return errors.Join(errs...)
}

func kindRank(kind string) int {
	if kind == "flow" {
		return 0
	}
	return 1
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

// flowKey maps a flow rule's runtime field path to its document key.
func flowKey(goField string) string {
	if sub, ok := strings.CutPrefix(goField, "ClusterConfig."); ok {
		if k := goToKey(clusterFields, sub); k != "" {
			return "clusterConfig." + k
		}
		return ""
	}
	return goToKey(flowFields, goField)
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
