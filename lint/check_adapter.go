package lint

import (
	"regexp"
	"slices"
	"strconv"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Resources of the adapters are named at run time, not by directives:
// httpguard names an HTTP resource after its ServeMux pattern ("GET
// /orders/{id}", "/static/"), grpcguard after the full method name
// ("/orders.Orders/Get"), the gateway after its routes and API groups.
// Their names reach the code as values lint cannot follow, so a rule
// naming one is neither known nor unknown: it is recognised by its shape
// (or, for the gateway, by the rule documents' own gateway rules) and
// reported once as a warning saying lint cannot check it, instead of an
// unknown-resource error for a rule that may well be right.
var (
	// httpPattern is a ServeMux pattern: METHOD [HOST]/[PATH] or /[PATH].
	// A host without a method is left out: "example.com/pkg.Func" is a
	// Go resource's default name, not a route.
	httpPattern = regexp.MustCompile(`^([A-Z]+ +[^\s/]*)?/\S*$`)
	// grpcMethod is a gRPC full method name: /package.Service/Method.
	grpcMethod = regexp.MustCompile(`^/([A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*/[A-Za-z_][A-Za-z0-9_]*$`)
)

// adapterShape says what kind of adapter resource name looks like: "gRPC
// method", "HTTP route", or "" for neither.
func adapterShape(name string) string {
	switch {
	case grpcMethod.MatchString(name) && slices.Contains([]byte(name), '.'):
		return "a gRPC method (adapters/grpcguard)"
	case httpPattern.MatchString(name):
		return "an HTTP route pattern (adapters/httpguard)"
	}
	return ""
}

// apiGroupKind marks an API group the rules define: the gateway enters it
// for the requests its predicates match, so rules on it are not reported.
const apiGroupKind = "gateway API group"

// gatewayResources is the names the rule documents' gateway kinds give
// the gateway: its routes (gw-flow rules in route mode) and API groups.
func gatewayResources(s rules.Set) map[string]string {
	out := map[string]string{}
	for _, r := range s.GatewayFlow {
		if r.ResourceMode == gateway.ModeRoute {
			out[r.Resource] = "a gateway route (a gw-flow rule in route mode names it)"
		}
	}
	for _, a := range s.APIGroups {
		out[a.Name] = apiGroupKind
	}
	return out
}

// adapterKind is what an undeclared name is as far as lint can tell: an
// adapter's or the gateway's resource (its description), or "".
func (p *pass) adapterKind(name string) string {
	if k := p.gateway[name]; k != "" {
		return k
	}
	return adapterShape(name)
}

// checkAdapterResource reports each rule naming an adapter's resource
// that lint cannot check, once per name.
func checkAdapterResource(p *pass) {
	seen := map[string]bool{}
	note := func(pos rules.Position, name string) {
		if name == "" || p.known(name) || seen[name] {
			return
		}
		k := p.adapterKind(name)
		if k == "" || k == apiGroupKind { // defined by the rules themselves
			return
		}
		seen[name] = true
		p.report(pos, "", "resource %q is named like %s, a resource named at run time: lint cannot check that the program guards it, so make sure a handler is registered under exactly this name", name, k)
	}
	for i, r := range p.set.Flow {
		note(p.flowAt(i), r.Resource)
		note(p.flowAt(i), r.RefResource)
	}
	for i, r := range p.set.Degrade {
		note(p.degradeAt(i), r.Resource)
	}
	for i, r := range p.set.ParamFlow {
		note(p.paramFlowAt(i), r.Resource)
	}
	for i, r := range p.set.Authority {
		note(authorityAt(p, i), r.Resource)
	}
	for i, r := range p.set.GatewayFlow {
		if r.ResourceMode == gateway.ModeRoute {
			note(gatewayFlowAt(p, i), r.Resource)
		}
	}
}

// checkUnknownAPIGroup reports gw-flow rules in API mode naming no API
// group of the documents, when the documents define API groups (else the
// groups come from elsewhere, e.g. gateway.LoadAPIDefinitions).
func checkUnknownAPIGroup(p *pass) {
	if len(p.set.APIGroups) == 0 {
		return
	}
	var names []string
	for _, a := range p.set.APIGroups {
		names = append(names, a.Name)
	}
	for i, r := range p.set.GatewayFlow {
		if r.ResourceMode != gateway.ModeAPI || slices.Contains(names, r.Resource) {
			continue
		}
		sg := annotate.ClosestName(r.Resource, names)
		hint := ""
		if sg != "" {
			hint = "; did you mean " + sg + "?"
		}
		p.report(gatewayFlowAt(p, i), sg, "gw-flow rule in API mode names %q, which no gw-api-group of the rules defines, so the rule guards nothing%s", r.Resource, hint)
	}
}

// gatewayFlowAt is flowAt for gw-flow rules.
func gatewayFlowAt(p *pass, i int) rules.Position {
	if i < len(p.set.GatewayFlowAt) && !p.set.GatewayFlowAt[i].IsZero() {
		return p.set.GatewayFlowAt[i]
	}
	return rules.Position{Path: "gw-flow[" + strconv.Itoa(i) + "]"}
}
