package transport

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// pushOK is the answer Sentinel's clients give a push that applied, which
// the dashboard checks.
const pushOK = "success"

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
func (s *Server) cmdSetRules(r *http.Request) (int, string) {
	kind := strings.ToLower(r.Form.Get("type"))
	switch kind {
	case "flow", "degrade", "system", "authority":
	default:
		s.refused(r, kind, "invalid type")
		return fail("invalid type")
	}
	return s.push(r, kind, r.Form.Get("data"))
}

// cmdSetParamFlowRules applies setParamFlowRules?data=[...].
func (s *Server) cmdSetParamFlowRules(r *http.Request) (int, string) {
	return s.push(r, "paramFlow", r.Form.Get("data"))
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
// thing whichever way it arrives. The work stops when the client goes
// away (r's context) and a push of more than Config.MaxPushRules rules is
// refused. Every push is logged with its caller and outcome; a refused one
// also counts in Refusals.
func (s *Server) push(r *http.Request, kind, data string) (int, string) {
	ctx := r.Context()
	refuse := func(status int, msg string) (int, string) {
		s.refused(r, kind, msg)
		return status, msg
	}
	if s.cfg.ReadOnly {
		return refuse(http.StatusForbidden, readOnlyMsg)
	}
	if strings.TrimSpace(data) == "" {
		return refuse(http.StatusBadRequest, "empty data: want a JSON array of "+kind+" rules")
	}
	name := "dashboard:" + kind
	// Java reads data with JSON.parseArray: only an array is a push. The
	// rules package also reads an object naming several kinds, which
	// would let one push change kinds it does not name.
	if !strings.HasPrefix(strings.TrimSpace(data), "[") {
		return refuse(http.StatusBadRequest, notApplied+name+": want a JSON array of "+kind+" rules")
	}
	select {
	case s.pushSem <- struct{}{}:
	case <-ctx.Done():
		return refuse(http.StatusServiceUnavailable, notApplied+"the client went away while the push waited for the previous one")
	}
	defer func() { <-s.pushSem }()
	k := pushKinds[kind]
	pushed, err := rules.Parse(rules.Document{Name: name, Data: []byte(data), Format: rules.FormatJSON, Kind: k})
	if n := kindLen(pushed, k); err == nil && n > s.cfg.MaxPushRules {
		return refuse(http.StatusRequestEntityTooLarge, fmt.Sprintf("%s%s: %d rules in one push, more than the %d this command center takes (Config.MaxPushRules)",
			notApplied, name, n, s.cfg.MaxPushRules))
	}
	var prev, next rules.Set
	before, unchanged := 0, -1
	if err == nil {
		// One read-modify-write, serialized with every data source's
		// update: a source's change of another kind is never undone.
		_, err = rules.Update(func(cur rules.Set) (rules.Set, error) {
			prev, before = cur, kindLen(cur, k)
			var err error
			next, unchanged, err = replaceKind(ctx, cur, k, pushed)
			if err == nil && ctx.Err() != nil {
				err = ctx.Err()
			}
			return next, err
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return refuse(http.StatusServiceUnavailable, notApplied+"the client went away before the push was applied")
		}
		return refuse(http.StatusBadRequest, notApplied+err.Error())
	}
	for _, w := range pushed.Warnings {
		s.log.Info("sentinel transport: pushed rules", "kind", kind, "note", w.Error())
	}
	logged := []any{"caller", r.RemoteAddr, "kind", kind, "before", before, "after", kindLen(next, k)}
	if unchanged >= 0 {
		logged = append(logged, "unchanged", unchanged)
	}
	if s.cfg.Writer != nil {
		if err := s.write(next); err != nil {
			// A push that is not stored would hold on this machine only,
			// until its next restart or the store's next change: it is
			// taken back and refused, so the dashboard and Refusals show
			// it.
			restoreKind(k, prev, next)
			return refuse(http.StatusInternalServerError, fmt.Sprintf("%swriting them to %s failed: %v", notApplied, writerName(s.cfg.Writer), err))
		}
	}
	s.log.Info("sentinel transport: rules pushed by the dashboard are in force", append(logged, "result", pushOK)...)
	return ok(pushOK)
}

// notApplied starts the answer to a refused push.
const notApplied = "rules not applied, the rules in force are unchanged: "

// replaceKind returns in with its rules of kind k replaced by pushed's.
// Flow rules the dashboard sent back unchanged keep the fields it drops
// (keepDroppedFields); unchanged says how many did (-1 for other kinds).
// Positions are left out: the set in force has none, and a pushed
// document's positions would say nothing to the writer.
func replaceKind(ctx context.Context, in rules.Set, k rules.Kind, pushed rules.Set) (next rules.Set, unchanged int, err error) {
	unchanged = -1
	switch k {
	case rules.KindFlow:
		in.Flow, unchanged, err = keepDroppedFields(ctx, pushed.Flow, in.Flow)
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
	return in, unchanged, err
}

// restoreKind puts prev's rules of kind k back in force in place of
// next's, unless a data source has changed that kind since next was put in
// force: its rules then stand.
func restoreKind(k rules.Kind, prev, next rules.Set) {
	_, _ = rules.Update(func(cur rules.Set) (rules.Set, error) {
		if !cur.Only(k).Equal(next.Only(k)) {
			return cur, rules.ErrUnchanged
		}
		return cur.Replace(prev, k), nil
	})
}

// writerName names a writable source in an answer: its String method when
// it has one, else its type.
func writerName(w any) string {
	if s, ok := w.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", w)
}

// kindLen is how many rules of kind k s holds.
func kindLen(s rules.Set, k rules.Kind) int {
	switch k {
	case rules.KindFlow:
		return len(s.Flow)
	case rules.KindDegrade:
		return len(s.Degrade)
	case rules.KindParamFlow:
		return len(s.ParamFlow)
	case rules.KindSystem:
		return len(s.System)
	case rules.KindAuthority:
		return len(s.Authority)
	case rules.KindGatewayFlow:
		return len(s.GatewayFlow)
	case rules.KindAPIGroup:
		return len(s.APIGroups)
	}
	return 0
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
// is equal; each rule in force stands for one pushed rule at most, the
// first of its view not yet taken. The rules in force are indexed by their
// view once, so the merge is linear in both lists. It stops with ctx's
// error when ctx ends (the client went away).
func keepDroppedFields(ctx context.Context, pushed, inForce []runtime.FlowRule) (out []runtime.FlowRule, kept int, err error) {
	byView := make(map[flowView][]int, len(inForce))
	for j, f := range inForce {
		if j%mergeCheckEvery == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		k := flowView(dashboardView(f))
		byView[k] = append(byView[k], j)
	}
	out = make([]runtime.FlowRule, len(pushed))
	for i, p := range pushed {
		if i%mergeCheckEvery == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		out[i] = p
		k := flowView(dashboardView(p))
		if js := byView[k]; len(js) > 0 {
			out[i] = inForce[js[0]]
			kept++
			if len(js) == 1 {
				delete(byView, k)
			} else {
				byView[k] = js[1:]
			}
		}
	}
	return out, kept, nil
}

// mergeCheckEvery is how many rules the merge handles between two looks at
// its context.
const mergeCheckEvery = 1024

// flowView is a flow rule's dashboardView used as a map key: every field of
// runtime.FlowRule is comparable (strings, numbers, bools and the
// ClusterConfig struct of those), so equal views are equal keys.
type flowView runtime.FlowRule

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
