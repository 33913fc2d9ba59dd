package lint

import (
	"github.com/sentinelgen/sentinelgen/runtime"
)

// minSamples is the smallest minRequestAmount that keeps a breaker from
// judging a handful of calls.
const minSamples = 20

// checkNoSlowBreaker reports resources whose breakers only count errors.
func checkNoSlowBreaker(p *pass) {
	order, byName := p.degradeByResource()
	for _, name := range order {
		idx := byName[name]
		hasSlow := false
		for _, i := range idx {
			hasSlow = hasSlow || p.set.Degrade[i].Grade == runtime.DegradeSlowRatio
		}
		if hasSlow {
			continue
		}
		p.report(p.degradeAt(idx[0]), "",
			"%q has only error-based breakers: a dependency that is slow but not dead throws nothing, so they stay closed while calls pile up; add a slow-call-ratio breaker (grade slowRatio, 0 in Sentinel JSON; count = the slow-call threshold in ms)",
			name)
	}
}

// checkMinRequestAmount reports breakers that judge too few calls.
func checkMinRequestAmount(p *pass) {
	for i, r := range p.set.Degrade {
		n, def := r.MinRequestAmount, ""
		if n == 0 {
			n, def = runtime.DefaultMinRequestAmount, " (the default)"
		}
		if n >= minSamples {
			continue
		}
		p.report(p.degradeAt(i), "",
			"breaker for %q judges after only %d calls%s: on a low-traffic resource one hiccup among a few calls opens it; set minRequestAmount to about QPS x 10, at least %d",
			r.Resource, n, def, minSamples)
	}
}

// checkBreakerWithoutHandler reports declared resources that have breakers
// but nothing to answer for them when open. Hand-registered resources are
// left alone: their callers handle the BlockError in code this check
// cannot follow.
func checkBreakerWithoutHandler(p *pass) {
	order, byName := p.degradeByResource()
	for _, name := range order {
		res := p.declared[name]
		if res == nil || res.BlockHandler != nil || res.Fallback != nil || res.DefaultFallback != nil {
			continue
		}
		p.report(p.degradeAt(byName[name][0]), "",
			"%q has circuit breakers but its directive names no blockHandler, fallback or defaultFallback: an open breaker reaches every caller as an error; add a fallback that answers locally",
			name)
	}
}
