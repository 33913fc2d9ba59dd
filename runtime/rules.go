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

// Rules is every kind of rule at once, the argument of LoadRules.
type Rules struct {
	Flow      []FlowRule
	Degrade   []DegradeRule
	ParamFlow []ParamFlowRule
	System    []SystemRule
	Authority []AuthorityRule
}

// LoadRules replaces the rules of every kind together: all of them are
// validated first, and either all take effect or nothing changes. Each
// resource switches to its new checks in one atomic step.
func LoadRules(r Rules) error {
	if len(r.ParamFlow)+len(r.System)+len(r.Authority) != 0 {
		return errors.New("sentinel: param-flow, system and authority rules are not enforced yet")
	}
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	changed := changedResources(r.Flow, r.Degrade, true, true)
	if err := errors.Join(ValidateFlowRules(r.Flow), validateDegradeRules(r.Degrade, changed)); err != nil {
		return err
	}
	install(r.Flow, r.Degrade, true, true, changed)
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

// changedResources finds the resources whose rules differ between those in
// force and flow (if flowChanged) and degrade (if degradeChanged). Callers
// hold rulesInForce's lock.
//
// A resource's rule set depends only on the rules that name it and their
// positions (block errors carry the index), so a resource none of whose
// positions changed keeps its rule set as it is: a load that edits one rule
// among 100k rebuilds one resource, not 100k. Changed positions are found
// by comparing the new lists with those in force, position by position.
func changedResources(flow []FlowRule, degrade []DegradeRule, flowChanged, degradeChanged bool) *ruleChanges {
	// Size the set once: a first load of 100k rules would otherwise grow it
	// step by step. Differing positions bound the names (two per position
	// at most, one in the common cases: a new rule, a removed one, an edit).
	hint := 0
	if flowChanged {
		hint += differing(rulesInForce.flow, flow)
	}
	if degradeChanged {
		hint += differing(rulesInForce.degrade, degrade)
	}
	c := &ruleChanges{slot: make(map[string]int32, hint)}
	if flowChanged {
		diffRules(rulesInForce.flow, flow, func(r FlowRule) string { return r.Resource }, c)
	}
	if degradeChanged {
		diffRules(rulesInForce.degrade, degrade, func(r DegradeRule) string { return r.Resource }, c)
	}
	return c
}

// ruleChanges is the resources a load changes and, once linked, the
// positions of the new rules naming each of them.
type ruleChanges struct {
	slot  map[string]int32 // resource name -> its index in names
	names []string
	// Per resource, the first position of a flow or degrade rule naming it
	// (-1: none); per position, the next one naming the same resource.
	// Chains, rather than a slice per resource, keep a large load to a few
	// allocations.
	flowHead, degradeHead []int32
	flowNext, degradeNext []int32
}

func (c *ruleChanges) add(name string) {
	if _, ok := c.slot[name]; !ok {
		c.slot[name] = int32(len(c.names))
		c.names = append(c.names, name)
	}
}

// has reports whether name is a changed resource; a nil c holds every name.
func (c *ruleChanges) has(name string) bool {
	if c == nil {
		return true
	}
	_, ok := c.slot[name]
	return ok
}

// link fills the position chains for the new rules.
func link[T any](c *ruleChanges, rules []T, resource func(T) string) (head, next []int32) {
	head, next = make([]int32, len(c.names)), make([]int32, len(rules))
	for i := range head {
		head[i] = -1
	}
	for i := len(rules) - 1; i >= 0; i-- { // backwards, so chains run in load order
		next[i] = -1
		if s, ok := c.slot[resource(rules[i])]; ok {
			next[i], head[s] = head[s], int32(i)
		}
	}
	return head, next
}

// positions appends the chain starting at head to buf.
func positions(buf []int, head int32, next []int32) []int {
	for p := head; p >= 0; p = next[p] {
		buf = append(buf, int(p))
	}
	return buf
}

// install publishes new rule sets for the resources in changed (see
// changedResources). Callers hold rulesInForce's lock and have validated the
// rules.
func install(flow []FlowRule, degrade []DegradeRule, flowChanged, degradeChanged bool, changed *ruleChanges) {
	if flowChanged {
		flow = append([]FlowRule(nil), flow...)
	}
	if degradeChanged {
		degrade = append([]DegradeRule(nil), degrade...)
	}

	if n := len(changed.names); n != 0 {
		c := changed
		c.flowHead, c.flowNext = link(c, flow, func(r FlowRule) string { return r.Resource })
		c.degradeHead, c.degradeNext = link(c, degrade, func(r DegradeRule) string { return r.Resource })
		registry.Lock()
		reserveLocked(n)
		resources := make([]*Resource, n)
		for k, name := range c.names {
			resources[k] = lookupOrCreateLocked(name)
			for p := c.flowHead[k]; p >= 0; p = c.flowNext[p] {
				if r := &flow[p]; r.Strategy == StrategyRelate {
					lookupOrCreateLocked(r.RefResource)
				}
			}
		}
		registry.Unlock()

		next := make([]*ruleSet, n)
		var flowIdx, degradeIdx []int
		for k, res := range resources {
			flowIdx, degradeIdx = positions(flowIdx[:0], c.flowHead[k], c.flowNext), positions(degradeIdx[:0], c.degradeHead[k], c.degradeNext)
			next[k] = buildRuleSet(res, res.rules.Load(), flow, flowIdx, degrade, degradeIdx)
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

// reserveLocked makes room in the registry for n more resources at once, so
// that a load naming many new resources does not grow the map step by step.
// Callers hold registry's lock.
func reserveLocked(n int) {
	if len(registry.byName) >= n {
		return // growing in steps costs little beside what is there
	}
	m := make(map[string]*Resource, len(registry.byName)+n)
	for k, v := range registry.byName {
		m[k] = v
	}
	registry.byName = m
}

// differing is how many positions of old and next differ.
func differing[T comparable](old, next []T) int {
	n := max(len(old), len(next)) - min(len(old), len(next))
	for i := range min(len(old), len(next)) {
		if old[i] != next[i] {
			n++
		}
	}
	return n
}

// diffRules adds to c the resources named at a position where old and next
// differ (either side's, so that a rule moving from one resource to another
// changes both).
func diffRules[T comparable](old, next []T, resource func(T) string, c *ruleChanges) {
	for i := range max(len(old), len(next)) {
		switch {
		case i >= len(old):
			c.add(resource(next[i]))
		case i >= len(next):
			c.add(resource(old[i]))
		case old[i] != next[i]:
			c.add(resource(old[i]))
			c.add(resource(next[i]))
		}
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
	rs.flow, rs.degrade = rs.oneFlow[:0], rs.oneDegrade[:0]
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
			// The same error while the rule keeps its index: its count of
			// blocks (BlockError.Blocked) then goes on across the reload.
			if text := r.blockText(index); text != f.blocked.Rule() {
				g.blocked = newBlockError(BlockTypeFlow, r.Resource, text)
			}
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
