package runtime

import (
	"cmp"
	"errors"
	"slices"
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
	install(rules, rulesInForce.degrade, true, false)
	return nil
}

// LoadDegradeRules replaces all degrade rules. If any rule is invalid nothing
// changes. A breaker whose rule is unchanged keeps its state and statistics.
func LoadDegradeRules(rules []DegradeRule) error {
	if err := ValidateDegradeRules(rules); err != nil {
		return err
	}
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	install(rulesInForce.flow, rules, false, true)
	return nil
}

// LoadRules replaces all flow and all degrade rules together: both slices are
// validated first, and either both take effect or nothing changes. Each
// resource switches to its new flow and degrade checks in one atomic step.
func LoadRules(flow []FlowRule, degrade []DegradeRule) error {
	if err := errors.Join(ValidateFlowRules(flow), ValidateDegradeRules(degrade)); err != nil {
		return err
	}
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	install(flow, degrade, true, true)
	return nil
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

// install builds every resource's new rule set and publishes them. Callers
// hold rulesInForce's lock and have validated the rules.
func install(flow []FlowRule, degrade []DegradeRule, flowChanged, degradeChanged bool) {
	flow = append([]FlowRule(nil), flow...)
	degrade = append([]DegradeRule(nil), degrade...)

	registry.Lock()
	flowBy := map[string][]int{}
	for i, r := range flow {
		flowBy[r.Resource] = append(flowBy[r.Resource], i)
		lookupOrCreateLocked(r.Resource)
		if r.Strategy == StrategyRelate {
			lookupOrCreateLocked(r.RefResource)
		}
	}
	degradeBy := map[string][]int{}
	for i, r := range degrade {
		degradeBy[r.Resource] = append(degradeBy[r.Resource], i)
		lookupOrCreateLocked(r.Resource)
	}
	resources := make([]*Resource, 0, len(registry.byName))
	for _, r := range registry.byName {
		resources = append(resources, r)
	}
	registry.Unlock()

	next := make(map[*Resource]*ruleSet, len(resources))
	for _, res := range resources {
		next[res] = buildRuleSet(res, res.rules.Load(), flow, flowBy[res.name], degrade, degradeBy[res.name])
	}
	for res, rs := range next {
		res.rules.Store(rs)
	}

	rulesInForce.flow, rulesInForce.degrade = flow, degrade
	if flowChanged {
		notifyRules(&flowRuleListeners, flow)
	}
	if degradeChanged {
		notifyRules(&degradeRuleListeners, degrade)
	}
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
	// Cluster-mode rules go last, as Sentinel orders them: a call that a
	// local rule blocks then spends no cluster token and no round trip.
	slices.SortStableFunc(rs.flow, func(a, b *flowCheck) int {
		return cmp.Compare(b2i(a.rule.ClusterMode), b2i(b.rule.ClusterMode))
	})
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
