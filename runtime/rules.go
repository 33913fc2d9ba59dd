package runtime

import (
	"errors"
	"sync"
)

// rulesInForce is what the last successful loads installed. The mutex
// serialises loads (and their listener notifications); the hot path never
// takes it.
var rulesInForce struct {
	sync.Mutex
	flow    []FlowRule // as given, in load order
	degrade []DegradeRule
}

// LoadFlowRules replaces all flow rules. If any rule is invalid nothing
// changes and the error names every invalid rule (see RuleError).
func LoadFlowRules(rules []FlowRule) error {
	if err := ValidateFlowRules(rules); err != nil {
		return err
	}
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	install(rules, rulesInForce.degrade, true, false, changedResources(rules, nil, true, false))
	return nil
}

// LoadDegradeRules replaces all degrade rules. If any rule is invalid nothing
// changes. A breaker whose rule is unchanged keeps its state and statistics.
func LoadDegradeRules(rules []DegradeRule) error {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	changed := changedResources(nil, rules, false, true)
	if err := validateDegradeRules(rules, changed); err != nil {
		return err
	}
	install(rulesInForce.flow, rules, false, true, changed)
	return nil
}

// LoadRules replaces all flow and all degrade rules together: both slices are
// validated first, and either both take effect or nothing changes. Each
// resource switches to its new flow and degrade checks in one atomic step.
func LoadRules(flow []FlowRule, degrade []DegradeRule) error {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	changed := changedResources(flow, degrade, true, true)
	if err := errors.Join(ValidateFlowRules(flow), validateDegradeRules(degrade, changed)); err != nil {
		return err
	}
	install(flow, degrade, true, true, changed)
	return nil
}

// changedResources is the set of resources whose rules differ between those
// in force and flow (if flowChanged) and degrade (if degradeChanged).
// Callers hold rulesInForce's lock.
//
// A resource's rule set depends only on the rules that name it and their
// positions (block errors carry the index), so a resource none of whose
// positions changed keeps its rule set as it is: a load that edits one rule
// among 100k rebuilds one resource, not 100k. Changed positions are found
// by comparing the new lists with those in force, position by position.
func changedResources(flow []FlowRule, degrade []DegradeRule, flowChanged, degradeChanged bool) map[string]struct{} {
	changed := map[string]struct{}{}
	if flowChanged {
		diffRules(rulesInForce.flow, flow, func(r FlowRule) string { return r.Resource }, changed)
	}
	if degradeChanged {
		diffRules(rulesInForce.degrade, degrade, func(r DegradeRule) string { return r.Resource }, changed)
	}
	return changed
}

// FlowRules returns a copy of the flow rules in force.
func FlowRules() []FlowRule {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	return append([]FlowRule(nil), rulesInForce.flow...)
}

// DegradeRules returns a copy of the degrade rules in force.
func DegradeRules() []DegradeRule {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	return append([]DegradeRule(nil), rulesInForce.degrade...)
}

// install publishes new rule sets for the resources in changed (see
// changedResources). Callers hold rulesInForce's lock and have validated the
// rules.
func install(flow []FlowRule, degrade []DegradeRule, flowChanged, degradeChanged bool, changed map[string]struct{}) {
	if flowChanged {
		flow = append([]FlowRule(nil), flow...)
	}
	if degradeChanged {
		degrade = append([]DegradeRule(nil), degrade...)
	}

	if len(changed) != 0 {
		flowBy, degradeBy := rulesOf(flow, changed, func(r FlowRule) string { return r.Resource }),
			rulesOf(degrade, changed, func(r DegradeRule) string { return r.Resource })
		registry.Lock()
		resources := make([]*Resource, 0, len(changed))
		for name := range changed {
			resources = append(resources, lookupOrCreateLocked(name))
		}
		for _, i := range flowBy.all {
			if r := flow[i]; r.Strategy == StrategyRelate {
				lookupOrCreateLocked(r.RefResource)
			}
		}
		registry.Unlock()

		next := make([]*ruleSet, len(resources))
		for k, res := range resources {
			next[k] = buildRuleSet(res, res.rules.Load(), flow, flowBy.of[res.name], degrade, degradeBy.of[res.name])
		}
		for k, res := range resources {
			res.rules.Store(next[k])
		}
	}

	rulesInForce.flow, rulesInForce.degrade = flow, degrade
	if flowChanged {
		notifyRules(&flowRuleListeners, flow)
	}
	if degradeChanged {
		notifyRules(&degradeRuleListeners, degrade)
	}
}

// diffRules adds to changed the resources named at a position where old and
// next differ (either side's, so that a rule moving from one resource to
// another changes both).
func diffRules[T comparable](old, next []T, resource func(T) string, changed map[string]struct{}) {
	for i := range max(len(old), len(next)) {
		switch {
		case i >= len(old):
			changed[resource(next[i])] = struct{}{}
		case i >= len(next):
			changed[resource(old[i])] = struct{}{}
		case old[i] != next[i]:
			changed[resource(old[i])] = struct{}{}
			changed[resource(next[i])] = struct{}{}
		}
	}
}

// ruleIndex is, for some resources, the positions of the rules naming them.
type ruleIndex struct {
	of  map[string][]int
	all []int // every position in of, in order
}

// rulesOf indexes the rules of rules that name a resource in only.
func rulesOf[T any](rules []T, only map[string]struct{}, resource func(T) string) ruleIndex {
	idx := ruleIndex{of: make(map[string][]int, min(len(only), len(rules)))}
	for i, r := range rules {
		name := resource(r)
		if _, ok := only[name]; ok {
			idx.of[name] = append(idx.of[name], i)
			idx.all = append(idx.all, i)
		}
	}
	return idx
}

// buildRuleSet makes res's checks for the given rules, reusing checks and
// breakers of old whose rule is identical so they keep their state (warm-up
// tokens, pacing schedule, breaker state and statistics).
func buildRuleSet(res *Resource, old *ruleSet, flow []FlowRule, flowIdx []int, degrade []DegradeRule, degradeIdx []int) *ruleSet {
	if len(flowIdx) == 0 && len(degradeIdx) == 0 {
		return nil
	}
	rs := &ruleSet{}
	var oldFlow []*flowCheck
	var oldDegrade []*breaker
	if old != nil {
		oldFlow, oldDegrade = old.flow, old.degrade
	}
	for _, i := range flowIdx {
		r := flow[i].normalized()
		f := takeFlowCheck(&oldFlow, r, i)
		if r.Strategy == StrategyRelate {
			f.related = lookupResource(r.RefResource)
		}
		if r.Strategy == StrategyChain {
			if rs.chained == nil {
				rs.chained = map[string]*node{}
			}
			n := rs.chained[r.RefResource]
			if n == nil && old != nil {
				n = old.chained[r.RefResource] // keep the entrance's statistics
			}
			if n == nil {
				n = newNode()
			}
			rs.chained[r.RefResource] = n
			f.entrance = n
		}
		if f.warm != nil {
			f.source(res, f.entrance).enablePerSecond()
		}
		if f.own != nil {
			rs.ownWindows = append(rs.ownWindows, f.own)
		}
		rs.flow = append(rs.flow, f)
	}
	for _, i := range degradeIdx {
		rs.degrade = append(rs.degrade, takeBreaker(&oldDegrade, degrade[i].normalized(), i))
	}
	return rs
}

// takeFlowCheck returns an unused check of pool with rule r (removing it from
// pool), or a new one. A reused check shares its state (windows, tokens,
// schedule) with the old one but gets a block error naming its new index.
func takeFlowCheck(pool *[]*flowCheck, r FlowRule, index int) *flowCheck {
	for k, f := range *pool {
		if f.rule == r {
			*pool = append((*pool)[:k:k], (*pool)[k+1:]...)
			g := *f
			g.blocked = newBlockError(BlockTypeFlow, r.Resource, r.blockText(index))
			return &g
		}
	}
	return newFlowCheck(r, index)
}

// takeBreaker returns the breaker of pool with rule r (removing it from
// pool), or a new one. Breakers are shared, not copied: calls in flight under
// the old rule set report to the same breaker.
func takeBreaker(pool *[]*breaker, r DegradeRule, index int) *breaker {
	for k, b := range *pool {
		if b.rule == r {
			*pool = append((*pool)[:k:k], (*pool)[k+1:]...)
			return b
		}
	}
	return newBreaker(r, index)
}

func lookupResource(name string) *Resource {
	registry.Lock()
	defer registry.Unlock()
	return lookupOrCreateLocked(name)
}

// Rule listeners, Sentinel's PropertyListener.
type ruleListeners[T any] struct {
	nextID uint64
	list   map[uint64]func([]T)
	order  []uint64
}

var (
	flowRuleListeners    ruleListeners[FlowRule]
	degradeRuleListeners ruleListeners[DegradeRule]
)

func addRuleListener[T any](ls *ruleListeners[T], fn func([]T), current func() []T) func() {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	if ls.list == nil {
		ls.list = map[uint64]func([]T){}
	}
	ls.nextID++
	id := ls.nextID
	ls.list[id] = fn
	ls.order = append(ls.order, id)
	fn(append([]T(nil), current()...))
	return func() {
		rulesInForce.Lock()
		defer rulesInForce.Unlock()
		delete(ls.list, id)
	}
}

func notifyRules[T any](ls *ruleListeners[T], rules []T) {
	for _, id := range ls.order {
		if fn, ok := ls.list[id]; ok {
			fn(append([]T(nil), rules...))
		}
	}
}

// OnFlowRulesChange registers fn to receive the flow rules in force: once at
// registration with the current rules, then after every successful flow load
// (LoadFlowRules or LoadRules). Calls are serialised with loads, so fn sees
// every change in order; fn must not load rules itself. The returned function
// unregisters fn.
func OnFlowRulesChange(fn func([]FlowRule)) (unregister func()) {
	return addRuleListener(&flowRuleListeners, fn, func() []FlowRule { return rulesInForce.flow })
}

// OnDegradeRulesChange is OnFlowRulesChange for degrade rules.
func OnDegradeRulesChange(fn func([]DegradeRule)) (unregister func()) {
	return addRuleListener(&degradeRuleListeners, fn, func() []DegradeRule { return rulesInForce.degrade })
}
