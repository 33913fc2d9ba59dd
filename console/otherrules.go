package console

import (
	"fmt"
	"strings"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// RuleView is a rule of a kind other than flow and degrade as the page
// lists it: hot-parameter, system, authority and gateway rules.
type RuleView struct {
	// Kind is the rule's kind as rule files name it: "param-flow",
	// "system", "authority", "gw-flow" or "gw-api-group".
	Kind string `json:"kind"`
	// Resource is the guarded resource, the gateway route or API group;
	// empty for a system rule, which guards every inbound call.
	Resource string `json:"resource"`
	// Text is the rule in one line.
	Text string `json:"text"`
}

// otherRules lists every hot-parameter, system, authority and gateway rule in
// force, in that order and each kind in load order.
func otherRules() []RuleView {
	var out []RuleView
	for _, r := range runtime.ParamFlowRules() {
		out = append(out, RuleView{Kind: "param-flow", Resource: r.Resource, Text: describeParamFlow(r)})
	}
	for _, r := range runtime.SystemRules() {
		out = append(out, RuleView{Kind: "system", Text: describeSystem(r)})
	}
	for _, r := range runtime.AuthorityRules() {
		list := "white list"
		if r.Strategy == runtime.AuthorityBlack {
			list = "black list"
		}
		out = append(out, RuleView{Kind: "authority", Resource: r.Resource, Text: list + ": " + r.LimitApp})
	}
	for _, r := range gateway.Rules() {
		out = append(out, RuleView{Kind: "gw-flow", Resource: r.Resource, Text: describeGatewayFlow(r)})
	}
	for _, d := range gateway.APIDefinitions() {
		var patterns []string
		for _, p := range d.Predicates {
			patterns = append(patterns, p.Pattern)
		}
		out = append(out, RuleView{Kind: "gw-api-group", Resource: d.Name, Text: "paths " + strings.Join(patterns, ", ")})
	}
	return out
}

// describeParamFlow is a one-line summary of a hot-parameter rule.
func describeParamFlow(r runtime.ParamFlowRule) string {
	per := "per value"
	if r.DurationInSec > 1 {
		per = fmt.Sprintf("per value per %d s", r.DurationInSec)
	}
	text := fmt.Sprintf("parameter %d: %g %s", r.ParamIdx, r.Count, per)
	if r.Grade == runtime.FlowGradeConcurrency {
		text = fmt.Sprintf("parameter %d: %g in flight per value", r.ParamIdx, r.Count)
	}
	if r.BurstCount > 0 {
		text += fmt.Sprintf(", burst %d", r.BurstCount)
	}
	if n := len(r.Items); n > 0 {
		text += fmt.Sprintf(", %d exception items", n)
	}
	return text
}

// describeSystem is a one-line summary of a system rule: the thresholds it
// sets (a negative one is unset).
func describeSystem(r runtime.SystemRule) string {
	var parts []string
	if r.HighestSystemLoad >= 0 {
		parts = append(parts, fmt.Sprintf("load > %g", r.HighestSystemLoad))
	}
	if r.HighestCPUUsage >= 0 {
		parts = append(parts, fmt.Sprintf("CPU > %g", r.HighestCPUUsage))
	}
	if r.QPS >= 0 {
		parts = append(parts, fmt.Sprintf("inbound QPS > %g", r.QPS))
	}
	if r.AvgRT >= 0 {
		parts = append(parts, fmt.Sprintf("average RT > %d ms", r.AvgRT))
	}
	if r.MaxThread >= 0 {
		parts = append(parts, fmt.Sprintf("calls in flight > %d", r.MaxThread))
	}
	if len(parts) == 0 {
		return "no threshold"
	}
	return "refuse inbound calls when " + strings.Join(parts, " or ")
}

// describeGatewayFlow is a one-line summary of a gateway flow rule.
func describeGatewayFlow(r gateway.FlowRule) string {
	what := "route"
	if r.ResourceMode == gateway.ModeAPI {
		what = "API group"
	}
	text := fmt.Sprintf("%s: %g per %d s", what, r.Count, max(r.IntervalSec, 1))
	if r.Grade == runtime.FlowGradeConcurrency {
		text = fmt.Sprintf("%s: %g in flight", what, r.Count)
	}
	if r.ParamItem != nil {
		text += " per parameter value"
	}
	return text
}
