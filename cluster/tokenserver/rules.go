package tokenserver

import (
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// DefaultNamespace is the namespace every server serves (Sentinel's
// ServerConstants.DEFAULT_NAMESPACE).
const DefaultNamespace = "default"

// LoadFlowRules puts rules in force for namespace, replacing the ones it had.
// Only rules in cluster mode count; each needs a ClusterConfig.FlowID unique
// across every namespace of the server (a token request names the flowId
// alone). A budget whose rule is unchanged keeps its statistics. The rules
// are checked first: on an error nothing changes, and the error names each
// rule refused by index.
func (s *Server) LoadFlowRules(ns string, rules []runtime.FlowRule) error {
	facts := func(r runtime.FlowRule) ruleFacts {
		return ruleFacts{r.ClusterMode, r.ClusterConfig.FlowID, r.Resource, r.Count}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := replaceBudgets(s, ns, "flow", rules, facts, *s.budgets.Load(),
		func(b *budget) *namespace { return b.namespace },
		func(old *budget, r runtime.FlowRule) bool { return sameBudget(old.rule, r) },
		func(r runtime.FlowRule, space *namespace) *budget {
			return &budget{rule: r, namespace: space, win: newWindow(DefaultSampleCount, windowOf(r))}
		})
	if err != nil {
		return err
	}
	s.budgets.Store(&next)
	s.rules[ns] = append([]runtime.FlowRule(nil), rulesOf(rules, facts)...)
	return nil
}

// ruleFacts are what loading reads of a flow or hot-parameter rule.
type ruleFacts struct {
	cluster  bool
	flowID   int64
	resource string
	count    float64
}

// rulesOf is the rules in cluster mode.
func rulesOf[R any](rules []R, facts func(R) ruleFacts) []R {
	var out []R
	for _, r := range rules {
		if facts(r).cluster {
			out = append(out, r)
		}
	}
	return out
}

// replaceBudgets returns current with namespace ns's budgets replaced by
// those of rules (what names their kind in errors): only rules in cluster
// mode count, each needs a flowId > 0 unique in rules and not in force in
// another namespace, and a count >= 0; a budget whose rule keep says is
// unchanged is kept, with its statistics; others are built. On any error
// nothing is returned but the error, naming each rule refused by index.
// s.mu is held.
func replaceBudgets[R any, B any](s *Server, ns, what string, rules []R, facts func(R) ruleFacts, current map[int64]B,
	nsOf func(B) *namespace, keep func(B, R) bool, build func(R, *namespace) B) (map[int64]B, error) {
	if ns == "" {
		return nil, fmt.Errorf("tokenserver: load %s rules: empty namespace", what)
	}
	var errs []error
	seen := map[int64]int{}
	var kept []R
	for i, r := range rules {
		f := facts(r)
		switch {
		case !f.cluster:
			continue
		case f.flowID <= 0:
			errs = append(errs, fmt.Errorf("%s rule %d (%s): clusterConfig.flowId %d must be > 0", what, i, f.resource, f.flowID))
			continue
		case f.count < 0:
			errs = append(errs, fmt.Errorf("%s rule %d (%s): count %v must be >= 0", what, i, f.resource, f.count))
			continue
		}
		if j, dup := seen[f.flowID]; dup {
			errs = append(errs, fmt.Errorf("%s rule %d (%s): flowId %d is also %s rule %d's", what, i, f.resource, f.flowID, what, j))
			continue
		}
		if b, ok := current[f.flowID]; ok && nsOf(b).name != ns {
			errs = append(errs, fmt.Errorf("%s flowId %d (%s) is in force in namespace %q already", what, f.flowID, f.resource, nsOf(b).name))
			continue
		}
		seen[f.flowID] = i
		kept = append(kept, r)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("tokenserver: %s rules of namespace %q refused, the rules in force stay:\n%w", what, ns, err)
	}
	next := make(map[int64]B, len(current))
	for id, b := range current {
		if nsOf(b).name != ns {
			next[id] = b
		}
	}
	space := s.namespaceLocked(ns)
	for _, r := range kept {
		id := facts(r).flowID
		if old, ok := current[id]; ok && keep(old, r) {
			next[id] = old
			continue
		}
		next[id] = build(r, space)
	}
	return next, nil
}

// windowOf is a rule's cluster window in milliseconds.
func windowOf(r runtime.FlowRule) int64 {
	if ms := r.ClusterConfig.WindowIntervalMs; ms > 0 {
		return int64(ms)
	}
	return DefaultIntervalMs
}

// sameBudget reports whether b can keep a's statistics.
func sameBudget(a, b runtime.FlowRule) bool {
	return windowOf(a) == windowOf(b) && a.Count == b.Count && a.ClusterConfig.ThresholdType == b.ClusterConfig.ThresholdType
}

// FlowRules returns the rules in force of namespace.
func (s *Server) FlowRules(ns string) []runtime.FlowRule {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]runtime.FlowRule(nil), s.rules[ns]...)
}

// Namespaces returns the namespaces the server serves, sorted.
func (s *Server) Namespaces() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.namespaces))
	for n := range s.namespaces {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// namespaceLocked returns namespace ns, creating it; s.mu is held.
func (s *Server) namespaceLocked(ns string) *namespace {
	n, ok := s.namespaces[ns]
	if !ok {
		n = newNamespace(ns, s.flow.Load())
		s.namespaces[ns] = n
	}
	return n
}

// LoadParamFlowRules puts hot-parameter rules in force for namespace, as
// LoadFlowRules does flow rules: only rules in cluster mode count, each
// with a flowId unique among the server's param rules; on an error nothing
// changes. A budget whose rule is unchanged keeps its statistics.
func (s *Server) LoadParamFlowRules(ns string, rules []runtime.ParamFlowRule) error {
	facts := func(r runtime.ParamFlowRule) ruleFacts {
		return ruleFacts{r.ClusterMode, r.ClusterConfig.FlowID, r.Resource, r.Count}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := replaceBudgets(s, ns, "param flow", rules, facts, *s.paramBudgets.Load(),
		func(b *paramBudget) *namespace { return b.namespace },
		func(old *paramBudget, r runtime.ParamFlowRule) bool { return reflect.DeepEqual(old.rule, r) },
		newParamBudget)
	if err != nil {
		return err
	}
	s.paramBudgets.Store(&next)
	return nil
}
