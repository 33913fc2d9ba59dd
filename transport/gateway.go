package transport

import (
	"net/http"
	"net/url"

	"github.com/sentinelgen/sentinelgen/gateway"
)

// The gateway commands, served when the app registers as an API gateway
// (Config.AppType 1, 11 or 12: the types the dashboard's sidebar shows
// with its gateway pages). A Java service without the gateway adapter has
// no such commands, and the dashboard is told "Unknown command" for them;
// so is it here for any other AppType.

// AppTypeGateway is Sentinel's app_type of an API gateway
// (SentinelGatewayConstants.APP_TYPE_GATEWAY): set Config.AppType to it to
// get the dashboard's gateway pages (API groups, gateway flow rules).
const AppTypeGateway = 1

// isGateway says whether the dashboard treats appType as a gateway.
func isGateway(appType int) bool { return appType == 1 || appType == 11 || appType == 12 }

// registerGateway installs the gateway commands, with Java's names and
// descriptions.
func (s *Server) registerGateway(add func(name, desc string, run func(url.Values) (int, string)),
	addPush func(name, desc string, push func(*http.Request) (int, string))) {
	add("gateway/getApiDefinitions", "Fetch all customized gateway API groups", s.cmdGatewayGetAPIs)
	addPush("gateway/updateApiDefinitions", "", s.cmdGatewayUpdateAPIs)
	add("gateway/getRules", "Fetch all gateway rules", s.cmdGatewayGetRules)
	addPush("gateway/updateRules", "Update gateway rules", s.cmdGatewayUpdateRules)
}

// cmdGatewayGetAPIs answers the API definitions in force as Java's
// ApiDefinition beans.
func (s *Server) cmdGatewayGetAPIs(url.Values) (int, string) {
	return okJSON(encodeAll(gateway.APIDefinitions(), apiDefinitionJSON))
}

// cmdGatewayGetRules answers the gateway flow rules in force as Java's
// GatewayFlowRule beans.
func (s *Server) cmdGatewayGetRules(url.Values) (int, string) {
	rules := gateway.Rules()
	out := make([]object, 0, len(rules))
	next := map[string]int{} // each resource's next parameter index, as Sentinel counts them
	for _, r := range rules {
		out = append(out, gatewayRuleJSON(r, next))
	}
	return okJSON(out)
}

// cmdGatewayUpdateAPIs replaces the API definitions (gw-api-group) with
// data, keeping the gateway flow rules and every other kind.
func (s *Server) cmdGatewayUpdateAPIs(r *http.Request) (int, string) {
	return s.push(r, gateway.KindAPIGroup, r.Form.Get("data"))
}

// cmdGatewayUpdateRules replaces the gateway flow rules (gw-flow) with data,
// keeping the API definitions and every other kind.
func (s *Server) cmdGatewayUpdateRules(r *http.Request) (int, string) {
	return s.push(r, gateway.KindFlow, r.Form.Get("data"))
}

// apiDefinitionJSON is Java's ApiDefinition with ApiPathPredicateItems.
func apiDefinitionJSON(a gateway.APIDefinition) object {
	items := make([]object, 0, len(a.Predicates))
	for _, p := range a.Predicates {
		items = append(items, object{"pattern": p.Pattern, "matchStrategy": int32(p.MatchStrategy)})
	}
	return object{"apiName": a.Name, "predicateItems": items}
}

// gatewayRuleJSON is Java's GatewayFlowRule. A parameter item carries the
// index Sentinel's GatewayRuleManager gives it when loading (the rule's
// place among the resource's rules with a parameter item); next holds the
// count per resource.
func gatewayRuleJSON(r gateway.FlowRule, next map[string]int) object {
	n := gateway.Normalize(r)
	o := object{
		"resource": r.Resource, "resourceMode": int32(r.ResourceMode), "grade": r.Grade.SentinelNumber(),
		"count": jdouble(r.Count), "intervalSec": int64(n.IntervalSec), "controlBehavior": int32(r.ControlBehavior),
		"burst": r.Burst, "maxQueueingTimeoutMs": r.MaxQueueingTimeoutMs,
	}
	if p := r.ParamItem; p != nil {
		item := object{"index": next[r.Resource], "parseStrategy": int32(p.ParseStrategy), "matchStrategy": int32(p.MatchStrategy)}
		next[r.Resource]++
		if p.FieldName != "" {
			item["fieldName"] = p.FieldName
		}
		if p.Pattern != "" {
			item["pattern"] = p.Pattern
		}
		o["paramItem"] = item
	}
	return o
}
