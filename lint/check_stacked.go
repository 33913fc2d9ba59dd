package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// maxPaths bounds how many call paths checkStackedThresholds walks, so a
// pathological rule graph cannot make lint slow.
const maxPaths = 1000

// limit is one QPS threshold on a call path.
type limit struct {
	rule  int // index in Set.Flow
	count float64
	stage int  // position on the path: 0 for the outermost resource
	chain bool // a chain rule (applies to this path only), else a direct rule
	desc  string
}

// checkStackedThresholds reports QPS limits that can never act because a
// smaller limit further in on the same call path always blocks first.
// Chain rules give the call edges (entrance -> resource). A relate rule is
// also judged against the related resource's own limit: it watches traffic
// that limit already caps.
func checkStackedThresholds(p *pass) {
	direct := map[string]int{}  // resource -> index of its smallest direct QPS limit
	calls := map[string][]int{} // entrance -> indexes of chain rules entered through it
	hasCaller := map[string]bool{}
	for i, r := range p.set.Flow {
		if !isQPS(r) {
			continue
		}
		switch r.Strategy {
		case runtime.StrategyDirect:
			if j, ok := direct[r.Resource]; !ok || r.Count < p.set.Flow[j].Count {
				direct[r.Resource] = i
			}
		case runtime.StrategyChain:
			calls[r.RefResource] = append(calls[r.RefResource], i)
			hasCaller[r.Resource] = true
		}
	}
	reported := map[int]bool{}
	flag := func(l, binding limit, path []string) {
		if reported[l.rule] {
			return
		}
		reported[l.rule] = true
		at := p.flowAt(l.rule)
		p.report(at, "",
			"%s never binds on the call path %s: %s (%s) always blocks first; with stacked limits only the innermost acts, so give each layer its own job (edge: anti-abuse, service: self-protection) or keep one limit",
			l.desc, strings.Join(path, " -> "), binding.desc, where(p.flowAt(binding.rule), at))
	}
	for _, path := range callPaths(p.set.Flow, calls, hasCaller) {
		limits := pathLimits(p.set.Flow, path, direct)
		for _, l := range limits {
			if b, ok := bindingLimit(l, limits); ok {
				flag(l, b, path.names)
			}
		}
	}
	for i, r := range p.set.Flow {
		if !isQPS(r) || r.Strategy != runtime.StrategyRelate {
			continue
		}
		j, ok := direct[r.RefResource]
		if !ok || r.Count <= p.set.Flow[j].Count || reported[i] {
			continue
		}
		at, own := p.flowAt(i), p.set.Flow[j].Count
		p.report(at, "",
			"%s (count %s) never binds: %q's own limit of %s (%s) keeps its QPS below that, so the relation can never act; set the relate count below %s or drop the rule",
			flowRuleName(r), formatCount(r.Count), r.RefResource, formatCount(own), where(p.flowAt(j), at), formatCount(own))
	}
}

// callPath is a chain of resources entered one through the other; edges[i]
// is the chain rule that leads from names[i] to names[i+1].
type callPath struct {
	names []string
	edges []int
}

// callPaths lists the maximal call paths of the chain rules, starting at
// entrances nothing leads to, in a stable order. A ring of entrances that
// nothing leads into has no outermost layer and is skipped.
func callPaths(flow []runtime.FlowRule, calls map[string][]int, hasCaller map[string]bool) []callPath {
	var roots []string
	for e := range calls {
		if !hasCaller[e] {
			roots = append(roots, e)
		}
	}
	slices.Sort(roots)
	var out []callPath
	var walk func(cp callPath)
	walk = func(cp callPath) {
		if len(out) >= maxPaths {
			return
		}
		last := cp.names[len(cp.names)-1]
		extended := false
		for _, i := range calls[last] {
			next := flow[i].Resource
			if slices.Contains(cp.names, next) {
				continue // a cycle: the path ends here
			}
			extended = true
			walk(callPath{
				names: append(slices.Clip(cp.names), next),
				edges: append(slices.Clip(cp.edges), i),
			})
		}
		if !extended && len(cp.edges) > 0 {
			out = append(out, cp)
		}
	}
	for _, r := range roots {
		walk(callPath{names: []string{r}})
	}
	return out
}

// pathLimits lists the QPS limits met along path, outermost first: each
// resource's smallest direct limit and the chain rules of the edges.
func pathLimits(flow []runtime.FlowRule, path callPath, direct map[string]int) []limit {
	var ls []limit
	for stage, name := range path.names {
		if stage > 0 {
			i := path.edges[stage-1]
			ls = append(ls, limit{rule: i, count: flow[i].Count, stage: stage, chain: true,
				desc: fmt.Sprintf("the QPS limit %s on %q via entrance %q", formatCount(flow[i].Count), name, flow[i].RefResource)})
		}
		if i, ok := direct[name]; ok {
			ls = append(ls, limit{rule: i, count: flow[i].Count, stage: stage,
				desc: fmt.Sprintf("the QPS limit %s on %q", formatCount(flow[i].Count), name)})
		}
	}
	return ls
}

// bindingLimit returns the smallest limit that acts before l on every call
// of the path, if it is smaller than l: any limit further in, or at the
// same resource a direct limit when l is a chain rule (the direct one
// counts all of the resource's calls, the chain one a part of them).
func bindingLimit(l limit, limits []limit) (limit, bool) {
	var best limit
	found := false
	for _, o := range limits {
		inner := o.stage > l.stage || o.stage == l.stage && l.chain && !o.chain
		if inner && o.count < l.count && (!found || o.count < best.count) {
			best, found = o, true
		}
	}
	return best, found
}

// formatCount writes a count in plain decimal: 5000, 0.5, never 5e+03.
func formatCount(c float64) string { return strconv.FormatFloat(c, 'f', -1, 64) }
