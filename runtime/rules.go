package runtime

import (
	"cmp"
	"errors"
	"slices"
	"sync"
)

// ruleKinds is a set of rule kinds, the kinds a load replaces.
type ruleKinds uint8

const (
	kindFlow ruleKinds = 1 << iota
	kindDegrade
	kindParam
	kindSystem
	kindAuthority
	allKinds = kindFlow | kindDegrade | kindParam | kindSystem | kindAuthority
)

// ruleLists is the rules of every kind, as given, in load order.
type ruleLists struct {
	flow      []FlowRule
	degrade   []DegradeRule
	param     []ParamFlowRule
	system    []SystemRule
	authority []AuthorityRule
}

// rulesInForce is what the last successful loads installed. The mutex
// serialises loads (and their listener notifications); the hot path never
// takes it.
var rulesInForce struct {
	sync.Mutex
	ruleLists
}

// LoadFlowRules replaces all flow rules. If any rule is invalid nothing
// changes and the error names every invalid rule (see RuleError).
func LoadFlowRules(rules []FlowRule) error {
	return load(ruleLists{flow: rules}, kindFlow)
}

// LoadDegradeRules replaces all degrade rules. If any rule is invalid nothing
// changes. A breaker whose rule is unchanged keeps its state and statistics.
func LoadDegradeRules(rules []DegradeRule) error {
	return load(ruleLists{degrade: rules}, kindDegrade)
}

// LoadParamFlowRules replaces all hot-parameter rules. If any rule is invalid
// nothing changes. A rule that is unchanged keeps its per-value state.
func LoadParamFlowRules(rules []ParamFlowRule) error {
	return load(ruleLists{param: rules}, kindParam)
}

// LoadSystemRules replaces all system rules. If any rule is invalid nothing
// changes. With no rule (an empty slice) system protection is off.
func LoadSystemRules(rules []SystemRule) error {
	return load(ruleLists{system: rules}, kindSystem)
}

// LoadAuthorityRules replaces all authority rules. If any rule is invalid
// nothing changes.
func LoadAuthorityRules(rules []AuthorityRule) error {
	return load(ruleLists{authority: rules}, kindAuthority)
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
// validated first, and either all take effect or nothing changes (an
// invalid authority rule leaves the flow rules in force as they were). Each
// resource switches to its new checks in one atomic step; the system
// thresholds, which are process-wide, switch in one step of their own.
func LoadRules(r Rules) error {
	return load(ruleLists{flow: r.Flow, degrade: r.Degrade, param: r.ParamFlow, system: r.System, authority: r.Authority}, allKinds)
}

// load replaces the kinds in kinds with those of next; the other kinds of
// next are ignored and stay as they are in force.
func load(next ruleLists, kinds ruleKinds) error {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	cur := &rulesInForce.ruleLists
	if kinds&kindFlow == 0 {
		next.flow = cur.flow
	}
	if kinds&kindDegrade == 0 {
		next.degrade = cur.degrade
	}
	if kinds&kindParam == 0 {
		next.param = cur.param
	}
	if kinds&kindSystem == 0 {
		next.system = cur.system
	}
	if kinds&kindAuthority == 0 {
		next.authority = cur.authority
	}
	var err error // the gateway's rules follow the user's (param_gateway.go)
	if next.param, err = joinGatewayParams(cur.param, next.param, kinds); err != nil {
		return err
	}
	changed := changedResources(&next, kinds)
	var errs []error
	if kinds&kindFlow != 0 {
		errs = append(errs, validateFlowRulesAt(next.flow, changed.flowAt.at))
	}
	if kinds&kindDegrade != 0 {
		errs = append(errs, validateDegradeRules(next.degrade, changed))
	}
	if kinds&(kindParam|kindGateway) == kindParam {
		errs = append(errs, ValidateParamFlowRules(userParams(next.param)))
	}
	if kinds&kindSystem != 0 {
		errs = append(errs, ValidateSystemRules(next.system))
	}
	if kinds&kindAuthority != 0 {
		errs = append(errs, validateAuthorityRulesAt(next.authority, changed.authorityAt.at))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	install(next, kinds, changed)
	return nil
}

// FlowRules returns a copy of the flow rules in force.
func FlowRules() []FlowRule { return inForce(func(l *ruleLists) []FlowRule { return l.flow }) }

// DegradeRules returns a copy of the degrade rules in force.
func DegradeRules() []DegradeRule {
	return inForce(func(l *ruleLists) []DegradeRule { return l.degrade })
}

// ParamFlowRules returns a copy of the hot-parameter rules in force.
func ParamFlowRules() []ParamFlowRule {
	return cloneParamRules(inForce(func(l *ruleLists) []ParamFlowRule { return userParams(l.param) }))
}

// SystemRules returns a copy of the system rules in force, as loaded.
func SystemRules() []SystemRule { return inForce(func(l *ruleLists) []SystemRule { return l.system }) }

// AuthorityRules returns a copy of the authority rules in force.
func AuthorityRules() []AuthorityRule {
	return inForce(func(l *ruleLists) []AuthorityRule { return l.authority })
}

func inForce[T any](kind func(*ruleLists) []T) []T {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	return append([]T(nil), kind(&rulesInForce.ruleLists)...)
}

// cloneParamRules copies rules deeply: a ParamFlowRule holds its items in a
// slice, which the caller must not share with the rules in force.
func cloneParamRules(rules []ParamFlowRule) []ParamFlowRule {
	if rules == nil {
		return nil
	}
	out := append([]ParamFlowRule(nil), rules...)
	for i := range out {
		out[i].Items = slices.Clone(out[i].Items)
	}
	return out
}

// sameParamRule is == for ParamFlowRule, whose items slice == cannot compare.
func sameParamRule(a, b ParamFlowRule) bool {
	return a.Resource == b.Resource && a.Grade == b.Grade && a.ParamIdx == b.ParamIdx && a.Count == b.Count &&
		a.ControlBehavior == b.ControlBehavior && a.MaxQueueingTimeMs == b.MaxQueueingTimeMs &&
		a.BurstCount == b.BurstCount && a.DurationInSec == b.DurationInSec && a.ClusterMode == b.ClusterMode &&
		a.ClusterConfig == b.ClusterConfig && slices.Equal(a.Items, b.Items)
}

// ruleIndexes is the positions of one resource's rules, per kind.
type ruleIndexes struct{ flow, degrade, param, authority []int }

// install publishes new rule sets for the resources in changed (see
// changedResources) and the system rules. Callers hold rulesInForce's lock
// and have validated the rules.
func install(next ruleLists, kinds ruleKinds, changed *ruleChanges) {
	cur := &rulesInForce.ruleLists
	if kinds&kindFlow != 0 {
		next.flow = keptList(cur.flow, next.flow, changed.flowAt.at)
	}
	if kinds&kindDegrade != 0 {
		next.degrade = keptList(cur.degrade, next.degrade, changed.degradeAt.at)
	}
	if kinds&kindParam != 0 {
		next.param = cloneParamRules(next.param)
	}
	if kinds&kindSystem != 0 {
		next.system = append([]SystemRule(nil), next.system...)
	}
	if kinds&kindAuthority != 0 {
		next.authority = keptList(cur.authority, next.authority, changed.authorityAt.at)
	}

	if n := len(changed.names); n != 0 {
		c := changed
		c.flow = link(c, next.flow, &c.flowAt, flowResource)
		c.degrade = link(c, next.degrade, &c.degradeAt, degradeResource)
		c.param = link(c, next.param, &c.paramAt, paramResource)
		c.authority = link(c, next.authority, &c.authorityAt, authorityResource)
		resources := loadResources(c, next.flow)

		sets := make([]*ruleSet, n)
		var ix ruleIndexes
		for k, res := range resources {
			ix.flow, ix.degrade = c.flow.positions(ix.flow[:0], k), c.degrade.positions(ix.degrade[:0], k)
			ix.param, ix.authority = c.param.positions(ix.param[:0], k), c.authority.positions(ix.authority[:0], k)
			sets[k] = buildRuleSet(res, res.rules.Load(), &next, &ix)
		}
		for k, res := range resources {
			res.rules.Store(sets[k])
		}
	}
	if kinds&kindSystem != 0 {
		installSystemRules(next.system)
	}

	rulesInForce.ruleLists = next
	if kinds&kindFlow != 0 {
		notifyRules(&flowRuleListeners, next.flow)
	}
	if kinds&kindDegrade != 0 {
		notifyRules(&degradeRuleListeners, next.degrade)
	}
	if kinds&(kindParam|kindGateway) == kindParam {
		for _, id := range paramRuleListeners.order {
			if fn, ok := paramRuleListeners.list[id]; ok {
				fn(cloneParamRules(userParams(next.param)))
			}
		}
	}
	if kinds&kindSystem != 0 {
		notifyRules(&systemRuleListeners, next.system)
	}
	if kinds&kindAuthority != 0 {
		notifyRules(&authorityRuleListeners, next.authority)
	}
}

// buildRuleSet makes res's checks for the rules at the positions ix, reusing
// checks and breakers of old whose rule is identical so they keep their
// state (warm-up tokens, pacing schedule, breaker state and statistics,
// per-origin statistics, per-value state).
func buildRuleSet(res *Resource, old *ruleSet, next *ruleLists, ix *ruleIndexes) *ruleSet {
	if len(ix.flow)+len(ix.degrade)+len(ix.param)+len(ix.authority) == 0 {
		return nil
	}
	rs := &ruleSet{}
	rs.flow, rs.degrade = rs.oneFlow[:0], rs.oneDegrade[:0]
	var oldFlow []*flowCheck
	var oldDegrade []*breaker
	var oldParam *paramChecks
	var oldOrigins *originNodes
	var oldChained map[string]*node
	if old != nil {
		oldFlow, oldDegrade, oldParam = old.flow, old.degrade, old.param
		if old.extras != nil {
			oldOrigins, oldChained = old.extras.origins, old.extras.chained
		}
	}
	origins := buildOriginNodes(oldOrigins, next.flow, ix.flow)
	if origins != nil {
		rs.makeExtras().origins = origins
	}
	for _, i := range ix.flow {
		r := next.flow[i].normalized()
		f := takeFlowCheck(&oldFlow, r, i)
		if r.Strategy == StrategyRelate {
			f.ref = lookupResource(r.RefResource).stats
		}
		if r.Strategy == StrategyChain {
			x := rs.makeExtras()
			if x.chained == nil {
				x.chained = map[string]*node{}
			}
			n := x.chained[r.RefResource]
			if n == nil {
				n = oldChained[r.RefResource] // keep the entrance's statistics
			}
			if n == nil {
				n = newNode()
			}
			x.chained[r.RefResource] = n
			f.ref = n
		}
		f.app, f.origin = appOf(r.LimitApp), nil
		if f.app == appOne {
			f.origin = origins.named[r.LimitApp]
		}
		if f.exact {
			// The reservation counter of the node the rule counts, made
			// now rather than at a call (nodes of "other" origins, made
			// at their first call, get theirs there: see reserve).
			if n := f.source(res, f.ref, f.origin); n != nil {
				n.heldCounter()
			}
		}
		if f.warm != nil && (f.app == appAll || r.Strategy != StrategyDirect) {
			// Per-origin nodes get theirs from buildOriginNodes.
			f.source(res, f.ref, nil).enablePerSecond()
		}
		if f.own != nil {
			x := rs.makeExtras()
			x.ownWindows = append(x.ownWindows, f.own)
		}
		rs.flow = append(rs.flow, f)
	}
	// Sentinel's FlowRuleComparator: cluster-mode rules go last (a call
	// that a local rule blocks then spends no cluster token and no round
	// trip), and among the local and among the cluster rules, those for
	// every caller ("default") go after those for some callers. Rules for
	// one origin and "other" rules keep their order: no call is subject to
	// both kinds, so their relative order cannot change a verdict.
	slices.SortStableFunc(rs.flow, func(a, b *flowCheck) int {
		return cmp.Compare(flowRank(a), flowRank(b))
	})
	for _, i := range ix.degrade {
		rs.degrade = append(rs.degrade, takeBreaker(&oldDegrade, next.degrade[i].normalized(), i))
	}
	rs.param = buildParamChecks(res, oldParam, next.param, ix.param)
	for _, i := range ix.authority {
		x := rs.makeExtras()
		x.authority = append(x.authority, newAuthorityCheck(next.authority[i], i))
	}
	if rs.param != nil {
		rs.makeExtras()
	}
	if x := rs.extras; x != nil {
		x.guarded = len(x.authority) != 0 || x.origins != nil || rs.param != nil
	}
	return rs
}

// flowRank orders a resource's flow checks (see buildRuleSet).
func flowRank(f *flowCheck) int {
	rank := 2 * b2i(f.rule.ClusterMode)
	if f.app == appAll {
		rank++
	}
	return rank
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
			if i, ok := f.blocked.lazyIndex(); !ok || i != index {
				g.blocked = new(BlockError)
				g.blocked.initLazy(BlockTypeFlow, &g.rule, index)
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
	flowRuleListeners      ruleListeners[FlowRule]
	degradeRuleListeners   ruleListeners[DegradeRule]
	paramRuleListeners     ruleListeners[ParamFlowRule]
	systemRuleListeners    ruleListeners[SystemRule]
	authorityRuleListeners ruleListeners[AuthorityRule]
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
	fn(current())
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
	return addRuleListener(&flowRuleListeners, fn, func() []FlowRule { return slices.Clone(rulesInForce.flow) })
}

// OnDegradeRulesChange is OnFlowRulesChange for degrade rules.
func OnDegradeRulesChange(fn func([]DegradeRule)) (unregister func()) {
	return addRuleListener(&degradeRuleListeners, fn, func() []DegradeRule { return slices.Clone(rulesInForce.degrade) })
}

// OnParamFlowRulesChange is OnFlowRulesChange for hot-parameter rules
// (LoadParamFlowRules or LoadRules). Each call gets its own deep copy.
func OnParamFlowRulesChange(fn func([]ParamFlowRule)) (unregister func()) {
	return addRuleListener(&paramRuleListeners, fn, func() []ParamFlowRule { return cloneParamRules(userParams(rulesInForce.param)) })
}

// OnSystemRulesChange is OnFlowRulesChange for system rules
// (LoadSystemRules or LoadRules).
func OnSystemRulesChange(fn func([]SystemRule)) (unregister func()) {
	return addRuleListener(&systemRuleListeners, fn, func() []SystemRule { return slices.Clone(rulesInForce.system) })
}

// OnAuthorityRulesChange is OnFlowRulesChange for authority rules
// (LoadAuthorityRules or LoadRules).
func OnAuthorityRulesChange(fn func([]AuthorityRule)) (unregister func()) {
	return addRuleListener(&authorityRuleListeners, fn, func() []AuthorityRule { return slices.Clone(rulesInForce.authority) })
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
