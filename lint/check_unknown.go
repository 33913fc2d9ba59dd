package lint

import (
	"maps"
	"slices"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// checkUnknownResource reports rules whose resource, or whose relate or
// chain refResource, the code does not have.
func checkUnknownResource(p *pass) {
	names := p.knownNames()
	const nowhere = "is neither declared by a //sentinel:resource directive nor registered with runtime.NewResource"
	// A package whose directives do not check has no resources: its rules
	// show up here too, and the directive errors are the cause to fix.
	cause := ""
	if len(p.opts.Code) > 0 {
		cause = " (packages with directive errors declare nothing: fix those first)"
	}
	unknown := func(pos rules.Position, what, name, reason string, candidates []string) {
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
}
