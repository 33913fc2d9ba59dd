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
	if ns == "" {
		return errors.New("tokenserver: load flow rules: empty namespace")
	}
	var errs []error
	seen := map[int64]int{}
	var kept []runtime.FlowRule
	for i, r := range rules {
		if !r.ClusterMode {
			continue
		}
		id := r.ClusterConfig.FlowID
		switch {
		case id <= 0:
			errs = append(errs, fmt.Errorf("rule %d (%s): clusterConfig.flowId %d must be > 0", i, r.Resource, id))
			continue
		case r.Count < 0:
			errs = append(errs, fmt.Errorf("rule %d (%s): count %v must be >= 0", i, r.Resource, r.Count))
			continue
		}
		if j, dup := seen[id]; dup {
			errs = append(errs, fmt.Errorf("rule %d (%s): flowId %d is also rule %d's", i, r.Resource, id, j))
			continue
		}
		seen[id] = i
		kept = append(kept, r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	budgets := *s.budgets.Load()
	for _, r := range kept {
		if b, ok := budgets[r.ClusterConfig.FlowID]; ok && b.namespace.name != ns {
			errs = append(errs, fmt.Errorf("flowId %d (%s) is in force in namespace %q already", r.ClusterConfig.FlowID, r.Resource, b.namespace.name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("tokenserver: flow rules of namespace %q refused, the rules in force stay:\n%w", ns, err)
	}
	next := make(map[int64]*budget, len(budgets))
	for id, b := range budgets {
		if b.namespace.name != ns {
			next[id] = b
		}
	}
	space := s.namespaceLocked(ns)
	for _, r := range kept {
		id := r.ClusterConfig.FlowID
		if old, ok := budgets[id]; ok && sameBudget(old.rule, r) {
			next[id] = old
			continue
		}
		next[id] = &budget{rule: r, namespace: space, win: newWindow(DefaultSampleCount, windowOf(r))}
	}
	s.budgets.Store(&next)
	s.rules[ns] = append([]runtime.FlowRule(nil), kept...)
	return nil
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
	if ns == "" {
		return errors.New("tokenserver: load param flow rules: empty namespace")
	}
	var errs []error
	seen := map[int64]int{}
	var kept []runtime.ParamFlowRule
	for i, r := range rules {
		if !r.ClusterMode {
			continue
		}
		id := r.ClusterConfig.FlowID
		switch {
		case id <= 0:
			errs = append(errs, fmt.Errorf("param rule %d (%s): clusterConfig.flowId %d must be > 0", i, r.Resource, id))
			continue
		case r.Count < 0:
			errs = append(errs, fmt.Errorf("param rule %d (%s): count %v must be >= 0", i, r.Resource, r.Count))
			continue
		}
		if j, dup := seen[id]; dup {
			errs = append(errs, fmt.Errorf("param rule %d (%s): flowId %d is also param rule %d's", i, r.Resource, id, j))
			continue
		}
		seen[id] = i
		kept = append(kept, r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	budgets := *s.paramBudgets.Load()
	for _, r := range kept {
		if b, ok := budgets[r.ClusterConfig.FlowID]; ok && b.namespace.name != ns {
			errs = append(errs, fmt.Errorf("param flowId %d (%s) is in force in namespace %q already", r.ClusterConfig.FlowID, r.Resource, b.namespace.name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("tokenserver: param flow rules of namespace %q refused, the rules in force stay:\n%w", ns, err)
	}
	next := make(map[int64]*paramBudget, len(budgets))
	for id, b := range budgets {
		if b.namespace.name != ns {
			next[id] = b
		}
	}
	space := s.namespaceLocked(ns)
	for _, r := range kept {
		id := r.ClusterConfig.FlowID
		if old, ok := budgets[id]; ok && reflect.DeepEqual(old.rule, r) {
			next[id] = old
			continue
		}
		next[id] = newParamBudget(r, space)
	}
	s.paramBudgets.Store(&next)
	return nil
}
