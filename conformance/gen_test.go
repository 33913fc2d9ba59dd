package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// genScenario makes a random scenario from seed: a few resources with
// random valid Sentinel rules (flow and degrade, every grade, behaviour and
// strategy Java and the runtime share), random traffic against them
// (single calls, held entries, errors, slow calls, batches, prioritized
// calls, entrances), clock moves, a rule reload, and observation points.
// The same seed always gives the same file.
//
// The scenario leaves out what a deliberate difference makes differ (see
// docs/differences.md: hand-written scenarios assert those) and what is not
// yet explained, unless with names it (see allFeatures).
func genScenario(seed uint64, with features) []byte {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x5e471e1)), seed: seed, with: with}
	g.resources = []string{"g.a", "g.b", "g.c"}[:2+g.r.IntN(2)]
	g.line(fmt.Sprintf("# generated scenario, seed %d", seed))
	g.loadRules()
	n := 60 + g.r.IntN(140)
	for i := 0; i < n; i++ {
		switch p := g.r.IntN(100); {
		case p < 55:
			g.call()
		case p < 70:
			g.emit(event{Op: "advance", Ms: int64(g.r.IntN(400))})
		case p < 78:
			g.hold()
		case p < 86:
			g.release()
		case p < 96:
			g.emit(event{Op: "check", Resource: g.pick()})
		case p < 98:
			g.emit(event{Op: "advance", Ms: int64(1000 + g.r.IntN(5000))})
		default:
			if !g.with["exit-across-reload"] {
				// Calls admitted under the old rules end first.
				for len(g.open) > 0 {
					g.release()
				}
			}
			if g.loadRules() && !g.with["warmup-history"] {
				// Past the second after the load: the new warm-up counts from the load.
				g.emit(event{Op: "advance", Ms: int64(2000 + g.r.IntN(1000))})
			}
		}
	}
	for _, res := range g.resources {
		g.emit(event{Op: "check", Resource: res})
	}
	return []byte(g.b.String())
}

// features names what a generated scenario may use beyond the default.
type features map[string]bool

// allFeatures are the features left out by default, each with the reason.
var allFeatures = map[string]string{
	"exit-across-reload": "calls admitted before a reload that end after it (exit-judged-by-admitting-rules)",
	"prioritized":        "prioritized calls anywhere (prioritized-wait-skips-checks)",
	"warmup-history":     "traffic right after a reload that adds a warm-up (warmup-history-from-load)",
	"half-open":          "entries held open on resources with breakers (half-open-probe-decides)",
	"order":              "a pacing rule beside other flow rules (flow-rule-order)",
	"warmup-no-span":     "warm-ups with less than 2 tokens of span (warmup-no-span)",
	"queueing-rt":        "slow-call breakers on resources with pacing rules (rt-excludes-queueing)",
}

type gen struct {
	r         *rand.Rand
	seed      uint64
	b         strings.Builder
	resources []string
	open      []string
	nextID    int
	with      features
	// waits marks resources where calls may wait (pacing rules, or
	// prioritized calls), slow those with a slow-call breaker; without full
	// a resource is never both.
	waits, slow map[string]bool
	// guarded marks resources with a breaker: without full, entries are
	// held open only on other resources (in Java any call completing while
	// a breaker is HALF_OPEN decides it, here only the probe does).
	guarded map[string]bool
	// flowCount is the number of flow rules of each resource: without the
	// prioritized feature, prioritized calls go only to resources with at
	// most one flow rule and no breaker (a call that waits for the next
	// window skips Java's later checks).
	flowCount map[string]int
}

func (g *gen) line(s string) { g.b.WriteString(s + "\n") }

func (g *gen) emit(ev event) {
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	g.line(string(data))
}

func (g *gen) pick() string { return g.resources[g.r.IntN(len(g.resources))] }

// entrances are the context names calls may come through.
var entrances = []string{"", "", "gen.entrance1", "gen.entrance2"}

func (g *gen) callEvent(op string) event {
	ev := event{Op: op, Resource: g.pick(), Entrance: entrances[g.r.IntN(len(entrances))]}
	if g.r.IntN(8) == 0 {
		n := 2 + g.r.IntN(3)
		ev.Acquire = &n
	}
	if g.r.IntN(20) == 0 && (g.with["prioritized"] || !g.guarded[ev.Resource] && g.flowCount[ev.Resource] <= 1) {
		ev.Prioritized = true
	}
	if g.r.IntN(6) == 0 {
		ev.Type = "in"
	}
	return ev
}

func (g *gen) call() {
	ev := g.callEvent("call")
	ev.RT = g.rt()
	ev.Error = g.r.IntN(4) == 0
	g.emit(ev)
}

// rt is a response time: mostly fast, sometimes slow.
func (g *gen) rt() int64 {
	if g.r.IntN(3) == 0 {
		return int64(50 + g.r.IntN(400))
	}
	return int64(g.r.IntN(20))
}

func (g *gen) hold() {
	ev := g.callEvent("entry")
	if g.guarded[ev.Resource] && !g.with["half-open"] {
		return
	}
	g.nextID++
	ev.ID = fmt.Sprintf("e%d", g.nextID)
	g.open = append(g.open, ev.ID)
	g.emit(ev)
}

func (g *gen) release() {
	if len(g.open) == 0 {
		return
	}
	i := g.r.IntN(len(g.open))
	id := g.open[i]
	g.open = append(g.open[:i], g.open[i+1:]...)
	g.emit(event{Op: "exit", ID: id, RT: g.rt(), Error: g.r.IntN(4) == 0})
}

// loadRules loads a fresh random set of both kinds and reports whether it
// has a warm-up rule.
func (g *gen) loadRules() (warm bool) {
	var flow, degrade []map[string]any
	seen := map[string]bool{}
	g.waits, g.slow, g.guarded, g.flowCount = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]int{}
	add := func(list *[]map[string]any, r map[string]any) {
		key, _ := json.Marshal(r)
		if !seen[string(key)] {
			seen[string(key)] = true
			*list = append(*list, r)
		}
	}
	for _, res := range g.resources {
		paced := false // at most one pacing rule per resource: see below
		for k := range g.r.IntN(3) {
			r := g.flowRule(res, &paced, k == 0)
			add(&flow, r)
			g.flowCount[res]++
			if paced && !g.with["order"] {
				// Alone: Java's hash order decides whether a pacing rule
				// advances its schedule for a call another rule blocks.
				break
			}
		}
		for range g.r.IntN(3) {
			add(&degrade, g.degradeRule(res, paced))
		}
	}
	flowJSON, _ := json.Marshal(flow)
	degradeJSON, _ := json.Marshal(degrade)
	if flow == nil {
		flowJSON = []byte("[]")
	}
	if degrade == nil {
		degradeJSON = []byte("[]")
	}
	g.emit(event{Op: "rules", Flow: flowJSON, Degrade: degradeJSON})
	for _, r := range flow {
		if b, _ := r["controlBehavior"].(int); b == 1 || b == 3 {
			warm = true
		}
	}
	return warm
}

// flowRule is a random valid flow rule for res. A resource gets at most one
// rate-limiter rule: Java checks a resource's flow rules in hash order, and
// a pacing rule advances its schedule when it passes a call that a later
// rule then blocks, so with two of them the outcome would depend on Java's
// hash codes rather than on the semantics compared here.
func (g *gen) flowRule(res string, paced *bool, first bool) map[string]any {
	r := map[string]any{"resource": res, "limitApp": "default"}
	switch g.r.IntN(10) {
	case 0, 1:
		r["grade"] = 0
		r["count"] = 1 + g.r.IntN(4)
	default:
		r["grade"] = 1
		count := float64(1 + g.r.IntN(20))
		if g.r.IntN(5) == 0 {
			count += 0.5
		}
		r["count"] = count
		behavior := g.r.IntN(4)
		if !g.with["order"] && behavior >= 2 && !first {
			behavior = g.r.IntN(2)
		}
		if behavior >= 2 && *paced {
			behavior = g.r.IntN(2)
		}
		*paced = *paced || behavior >= 2
		r["controlBehavior"] = behavior
		if behavior == 1 || behavior == 3 {
			period := 1 + g.r.IntN(10)
			if !g.with["warmup-no-span"] && float64(period)*count < 2 {
				// Fewer than 2 tokens between warning and max: Java's
				// slope is infinite and the rule blocks every call.
				period = 2
			}
			r["warmUpPeriodSec"] = period
		}
		if behavior >= 2 {
			r["maxQueueingTimeMs"] = 1 + g.r.IntN(1000)
		}
	}
	switch p := g.r.IntN(10); {
	case p == 0 && len(g.resources) > 1:
		r["strategy"] = 1
		for {
			if ref := g.pick(); ref != res {
				r["refResource"] = ref
				break
			}
		}
	case p == 1:
		r["strategy"] = 2
		r["refResource"] = entrances[2+g.r.IntN(2)]
	}
	return r
}

// degradeRule is a random valid degrade rule for res.
func (g *gen) degradeRule(res string, paced bool) map[string]any {
	r := map[string]any{
		"resource": res, "limitApp": "default",
		"timeWindow":       1 + g.r.IntN(5),
		"minRequestAmount": 1 + g.r.IntN(10),
		"statIntervalMs":   []int{1000, 1000, 2000, 5000}[g.r.IntN(4)],
	}
	grade := g.r.IntN(3)
	if grade == 0 && paced && !g.with["queueing-rt"] {
		grade = 1 + g.r.IntN(2)
	}
	if grade == 0 {
		g.slow[res] = true
	}
	g.guarded[res] = true
	switch grade {
	case 0:
		r["grade"] = 0
		r["count"] = 10 + g.r.IntN(200)
		r["slowRatioThreshold"] = float64(1+g.r.IntN(10)) / 10
	case 1:
		r["grade"] = 1
		r["count"] = float64(1+g.r.IntN(9)) / 10
	default:
		r["grade"] = 2
		r["count"] = 1 + g.r.IntN(5)
	}
	return r
}
