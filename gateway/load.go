package gateway

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// state is the gateway rules and API definitions in force, swapped whole.
type state struct {
	rules map[string][]compiledRule // by resource, in load order
	apis  []compiledAPI
	// owned is what Load added to the runtime's hot-parameter rules.
	owned []runtime.ParamFlowRule
	// given is what Load was given, for Rules and APIDefinitions.
	given    []FlowRule
	givenAPI []APIDefinition
}

type compiledAPI struct {
	name     string
	matchers []pathMatcher
}

var (
	loadMu  sync.Mutex
	current atomic.Pointer[state]
)

func init() { current.Store(&state{}) }

// Load validates rules and definitions and puts them in force together:
// either both change or, on any error, neither does and the last good ones
// stay. The rules become hot-parameter rules of the runtime (see
// ToParamFlowRules) kept apart from the runtime's own, as Sentinel's
// GatewayRuleManager keeps them: loading the runtime's hot-parameter rules
// by other means (runtime.LoadRules, rules.Apply, a rules file reload)
// leaves the gateway's in force, and Load leaves those. The runtime's own
// must not name a gateway resource (their arguments would be the
// gateway's): Load refuses rules on a resource such a rule names.
func Load(rules []FlowRule, apis []APIDefinition) error {
	loadMu.Lock()
	defer loadMu.Unlock()
	return load(rules, apis)
}

// LoadFlowRules is Load keeping the API definitions in force, for the
// transport's gateway/updateRules command.
func LoadFlowRules(rules []FlowRule) error {
	loadMu.Lock()
	defer loadMu.Unlock()
	return load(rules, current.Load().givenAPI)
}

// LoadAPIDefinitions is Load keeping the gateway rules in force, for the
// transport's gateway/updateApiDefinitions command.
func LoadAPIDefinitions(apis []APIDefinition) error {
	loadMu.Lock()
	defer loadMu.Unlock()
	return load(current.Load().given, apis)
}

// Validate reports the problems Load would refuse rules and apis for,
// without loading them: each is a *RuleError (joined). It does not check
// the runtime's own hot-parameter rules, which Load also refuses on a
// gateway resource.
func Validate(rules []FlowRule, apis []APIDefinition) error {
	_, err := compile(rules, apis)
	return err
}

// load is Load with loadMu held.
func load(rules []FlowRule, apis []APIDefinition) error {
	next, err := compile(rules, apis)
	if err != nil {
		return err
	}
	for _, r := range runtime.ParamFlowRules() { // the runtime's own, not the gateway's
		if _, ok := next.rules[r.Resource]; ok {
			return fmt.Errorf("gateway: the hot-parameter rule on %q is not a gateway rule; a gateway resource takes gateway rules only", r.Resource)
		}
	}
	if err := runtime.LoadGatewayParamFlowRules(next.owned); err != nil {
		return err
	}
	current.Store(next)
	return nil
}

// compile validates rules and apis and returns the state they make.
func compile(rules []FlowRule, apis []APIDefinition) (*state, error) {
	next := &state{rules: map[string][]compiledRule{}, given: append([]FlowRule(nil), rules...), givenAPI: append([]APIDefinition(nil), apis...)}
	var errs []error
	for i, r := range rules {
		r = Normalize(r)
		if es := validateRule(i, r); len(es) != 0 {
			errs = append(errs, es...)
			continue
		}
		next.rules[r.Resource] = append(next.rules[r.Resource], compileRule(r))
	}
	seen := map[string]int{}
	for i, a := range apis {
		fail := func(field, reason string) {
			errs = append(errs, &RuleError{Kind: "gw-api-group", Index: i, Name: a.Name, Field: field, Reason: reason})
		}
		if a.Name == "" {
			fail("apiName", rulecheck.Empty)
		} else if j, dup := seen[a.Name]; dup {
			fail("apiName", fmt.Sprintf("is also the name of definition #%d", j))
		}
		seen[a.Name] = i
		if len(a.Predicates) == 0 {
			fail("predicateItems", "is empty: the API would match no request")
		}
		c := compiledAPI{name: a.Name}
		for j, p := range a.Predicates {
			m, err := compilePredicate(p)
			if err != nil {
				fail(fmt.Sprintf("predicateItems[%d]", j), err.Error())
				continue
			}
			c.matchers = append(c.matchers, m)
		}
		next.apis = append(next.apis, c)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	next.owned = ToParamFlowRules(rules)
	return next, nil
}

// Rules returns the gateway rules in force, as given to Load.
func Rules() []FlowRule { return append([]FlowRule(nil), current.Load().given...) }

// APIDefinitions returns the API definitions in force, as given to Load.
func APIDefinitions() []APIDefinition {
	return append([]APIDefinition(nil), current.Load().givenAPI...)
}
