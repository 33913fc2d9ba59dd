package transport

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Answers Sentinel's clients give a push, which the dashboard checks.
const (
	pushOK           = "success"
	pushWriteFailure = "partial success (write data source failed)"
)

// readOnlyMsg explains a refused push where the dashboard shows it.
const readOnlyMsg = "read-only: this service takes rules from its data source only (the command center runs with ReadOnly / -read-only); change the rule there"

// cmdGetRules answers getRules?type=flow|degrade|system|authority with the
// rules in force, as Java rule beans.
func (s *Server) cmdGetRules(p url.Values) (int, string) {
	in := currentRules()
	switch strings.ToLower(p.Get("type")) {
	case "flow":
		return okJSON(encodeAll(in.Flow, flowJSON))
	case "degrade":
		return okJSON(encodeAll(in.Degrade, degradeJSON))
	case "system":
		return okJSON(encodeAll(in.System, systemJSON))
	case "authority":
		return okJSON(encodeAll(in.Authority, authorityJSON))
	}
	return fail("invalid type")
}

// cmdGetParamFlowRules answers getParamFlowRules.
func (s *Server) cmdGetParamFlowRules(url.Values) (int, string) {
	return okJSON(encodeAll(currentRules().ParamFlow, paramJSON))
}

// cmdSetRules applies setRules?type=...&data=[...]: data is the machine's
// whole list of that kind, which replaces the rules of that kind in force.
func (s *Server) cmdSetRules(p url.Values) (int, string) {
	kind := strings.ToLower(p.Get("type"))
	switch kind {
	case "flow", "degrade", "system", "authority":
	default:
		return fail("invalid type")
	}
	return s.push(kind, p.Get("data"))
}

// cmdSetParamFlowRules applies setParamFlowRules?data=[...].
func (s *Server) cmdSetParamFlowRules(p url.Values) (int, string) {
	return s.push("paramFlow", p.Get("data"))
}

// pushKinds maps the kind a push names to the rules package's kind.
var pushKinds = map[string]rules.Kind{
	"flow": rules.KindFlow, "degrade": rules.KindDegrade, "system": rules.KindSystem,
	"authority": rules.KindAuthority, "paramFlow": rules.KindParamFlow,
	gateway.KindFlow: rules.KindGatewayFlow, gateway.KindAPIGroup: rules.KindAPIGroup,
}

// push validates data as rules of kind, puts them in force together with
// the rules of every other kind unchanged, then persists the result through
// the writable source, if any. The document is read by the rules package,
// the reader of every other source (files, etcd), so a rule means the same
// thing whichever way it arrives.
func (s *Server) push(kind, data string) (int, string) {
	if s.cfg.ReadOnly {
		s.log.Warn("sentinel transport: refused a rule push in read-only mode", "kind", kind)
		return http.StatusForbidden, readOnlyMsg
	}
	if strings.TrimSpace(data) == "" {
		return fail("empty data: want a JSON array of " + kind + " rules")
	}
	name := "dashboard:" + kind
	// Java reads data with JSON.parseArray: only an array is a push. The
	// rules package also reads an object naming several kinds, which
	// would let one push change kinds it does not name.
	if !strings.HasPrefix(strings.TrimSpace(data), "[") {
		return fail("rules not applied, the rules in force are unchanged: " + name + ": want a JSON array of " + kind + " rules")
	}
	s.pushMu.Lock()
	defer s.pushMu.Unlock()
	k := pushKinds[kind]
	pushed, err := rules.Parse(rules.Document{Name: name, Data: []byte(data), Format: rules.FormatJSON, Kind: k})
	var next rules.Set
	if err == nil {
		// One read-modify-write, serialized with every data source's
		// update: a source's change of another kind is never undone.
		_, err = rules.Update(func(cur rules.Set) (rules.Set, error) {
			next = replaceKind(cur, k, pushed)
			return next, nil
		})
	}
	if err != nil {
		s.log.Warn("sentinel transport: refused pushed rules; the rules in force are unchanged", "kind", kind, "error", err)
		return fail("rules not applied, the rules in force are unchanged: " + err.Error())
	}
	for _, w := range pushed.Warnings {
		s.log.Info("sentinel transport: pushed rules", "kind", kind, "note", w.Error())
	}
	s.log.Info("sentinel transport: rules pushed by the dashboard are in force", "kind", kind)
	if s.cfg.Writer != nil {
		if err := s.write(next); err != nil {
			s.log.Error("sentinel transport: pushed rules are in force but were not persisted", "kind", kind, "error", err)
			return ok(pushWriteFailure)
		}
	}
	return ok(pushOK)
}

// replaceKind returns in with its rules of kind k replaced by pushed's.
// Flow rules the dashboard sent back unchanged keep the fields it drops
// (keepDroppedFields). Positions are left out: the set in force has none,
// and a pushed document's positions would say nothing to the writer.
func replaceKind(in rules.Set, k rules.Kind, pushed rules.Set) rules.Set {
	switch k {
	case rules.KindFlow:
		in.Flow = keepDroppedFields(pushed.Flow, in.Flow)
	case rules.KindDegrade:
		in.Degrade = pushed.Degrade
	case rules.KindParamFlow:
		in.ParamFlow, in.ParamFlowParam = pushed.ParamFlow, pushed.ParamFlowParam
	case rules.KindSystem:
		in.System = pushed.System
	case rules.KindAuthority:
		in.Authority = pushed.Authority
	case rules.KindGatewayFlow:
		in.GatewayFlow, in.HasGateway = pushed.GatewayFlow, true
	case rules.KindAPIGroup:
		in.APIGroups, in.HasGateway = pushed.APIGroups, true
	}
	return in
}

// write persists next, every kind of rule in force (the gateway's too),
// through the writable source.
func (s *Server) write(next rules.Set) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.cfg.Writer.Write(ctx, next)
}

// keepDroppedFields returns pushed with each rule that the dashboard sent
// back unchanged replaced by the rule in force it stands for. The dashboard
// keeps only Java's properties of a flow rule: without this, one edit in
// its UI would erase the StatIntervalMs and ColdFactor of every other rule
// of the machine. A rule matches when every property the dashboard carries
// is equal; each rule in force stands for one pushed rule at most.
func keepDroppedFields(pushed, inForce []runtime.FlowRule) []runtime.FlowRule {
	used := make([]bool, len(inForce))
	out := make([]runtime.FlowRule, len(pushed))
	for i, p := range pushed {
		out[i] = p
		kp := dashboardView(p)
		for j, f := range inForce {
			if !used[j] && dashboardView(f) == kp {
				used[j], out[i] = true, f
				break
			}
		}
	}
	return out
}

// dashboardView is what of r survives a round trip through the dashboard:
// getRules' Java view, read back.
func dashboardView(r runtime.FlowRule) runtime.FlowRule {
	r.WarmUpPeriodSec = orJava(r.WarmUpPeriodSec, javaWarmUpPeriodSec)
	r.MaxQueueingTimeMs = orJava(r.MaxQueueingTimeMs, javaMaxQueueingTimeMs)
	r.ColdFactor, r.StatIntervalMs = 0, 0
	if r.LimitApp == "default" {
		r.LimitApp = ""
	}
	if !r.ClusterMode {
		r.ClusterConfig = runtime.ClusterConfig{}
	}
	r.ClusterConfig.WindowIntervalMs = orJava(r.ClusterConfig.WindowIntervalMs, 1000)
	return r
}
