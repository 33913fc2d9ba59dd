package lint

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// checkUnknownResource reports rules whose resource, or whose relate or
// chain refResource, the code does not have.
func checkUnknownResource(p *pass) {
	const nowhere = "is neither declared by a //sentinel:resource directive nor registered with runtime.NewResource"
	// A package whose directives do not check has no resources. The rules
	// for the names its directives would declare are not reported: the
	// directive error is the one cause to fix, and once it is fixed the
	// rules are judged as any other. Others may still be for such a
	// package (a directive too broken to give its name), which the message
	// then says.
	pending := map[string]bool{}
	cause := ""
	if len(p.opts.Code) > 0 {
		pending = undeclaredNames(p.opts.Code)
		cause = " (packages with directive errors declare nothing: fix those first)"
	}
	names := p.knownNames()
	for n := range pending {
		if !p.known(n) {
			names = append(names, n) // suggestions may name them
		}
	}
	slices.Sort(names)
	unknown := func(pos rules.Position, what, name, reason string, candidates []string) {
		if pending[name] {
			return
		}
		suggestion := annotate.ClosestName(name, candidates)
		hint := ""
		if suggestion != "" {
			hint = "; did you mean " + suggestion + "?"
		}
		p.report(pos, suggestion, "%s %q %s, so the rule guards nothing%s%s", what, name, reason, cause, hint)
	}
	for i, r := range p.set.Flow {
		if !p.known(r.Resource) {
			unknown(p.flowAt(i), "resource", r.Resource, nowhere, names)
		}
		switch r.Strategy {
		case runtime.StrategyRelate:
			if !p.known(r.RefResource) {
				unknown(p.flowAt(i), "related resource (refResource)", r.RefResource, nowhere, names)
			}
		case runtime.StrategyChain:
			// An entrance is usually an inbound resource, but any name set
			// with runtime.WithEntrance will do.
			if !p.known(r.RefResource) && !p.entrances[r.RefResource] {
				unknown(p.flowAt(i), "entrance (refResource)", r.RefResource, "is not declared by a //sentinel:resource directive, registered with runtime.NewResource or set with runtime.WithEntrance",
					append(names, slices.Sorted(maps.Keys(p.entrances))...))
			}
		}
	}
	for i, r := range p.set.Degrade {
		if !p.known(r.Resource) {
			unknown(p.degradeAt(i), "resource", r.Resource, nowhere, names)
		}
	}
	for i, r := range p.set.ParamFlow {
		if !p.known(r.Resource) {
			unknown(p.paramFlowAt(i), "resource", r.Resource, nowhere, names)
		}
	}
	for i, r := range p.set.Authority {
		if !p.known(r.Resource) {
			unknown(authorityAt(p, i), "resource", r.Resource, nowhere, names)
		}
	}
}

// authorityAt is flowAt for authority rules.
func authorityAt(p *pass, i int) rules.Position {
	if i < len(p.set.AuthorityAt) && !p.set.AuthorityAt[i].IsZero() {
		return p.set.AuthorityAt[i]
	}
	return rules.Position{Path: fmt.Sprintf("authority[%d]", i)}
}
