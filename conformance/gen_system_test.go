package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// genSystemScenario makes a random system-protection scenario from seed:
// one to three system rules, each setting some of the load, CPU, QPS,
// average-RT and thread thresholds, scripted load and CPU readings that
// move around the thresholds (exactly at them too, and unknown), inbound
// calls and held entries with response times from 0 to 300 ms, batch calls,
// outbound calls, clock moves within and across buckets, reloads and
// observation points. Load over its threshold with calls in flight is where
// BBR decides, from the window's busiest bucket and least response time.
// The same seed always gives the same file.
//
// Every rule sets at least one threshold, so protection stays on from the
// first event to the last: Java's last rule switches protection on or off
// (system-any-rule), and the runtime counts inbound calls only while it is
// on (system-inbound-from-load).
func genSystemScenario(seed uint64) []byte {
	g := &systemGen{r: rand.New(rand.NewPCG(seed, seed^0x5e5)), resources: []string{"s.a", "s.b"}}
	g.line(fmt.Sprintf("# generated system-protection scenario, seed %d", seed))
	g.load()
	g.readings()
	n := 60 + g.r.IntN(100)
	for i := 0; i < n; i++ {
		switch p := g.r.IntN(100); {
		case p < 35:
			g.call()
		case p < 55:
			g.hold()
		case p < 70:
			g.release()
		case p < 80:
			g.readings()
		case p < 90:
			g.emit(event{Op: "advance", Ms: int64(g.r.IntN(600))})
		case p < 94:
			g.emit(event{Op: "check", Resource: g.resources[g.r.IntN(len(g.resources))]})
		case p < 97:
			g.emit(event{Op: "advance", Ms: int64(1000 + g.r.IntN(2000))})
		default:
			g.load()
		}
	}
	for len(g.open) > 0 {
		g.release()
	}
	for _, res := range g.resources {
		g.emit(event{Op: "check", Resource: res})
	}
	return []byte(g.b.String())
}

type systemGen struct {
	r         *rand.Rand
	b         strings.Builder
	resources []string
	open      []string
	nextID    int
	// load and cpu are the thresholds of the last load (-1 unset), which
	// the readings aim at.
	loadAt, cpuAt float64
}

func (g *systemGen) line(s string) { g.b.WriteString(s + "\n") }

func (g *systemGen) emit(ev event) {
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	g.line(string(data))
}

// load puts one to three random system rules in force.
func (g *systemGen) load() {
	g.loadAt, g.cpuAt = -1, -1
	var rules []map[string]any
	for range 1 + g.r.IntN(3) {
		r := map[string]any{}
		for len(r) == 0 {
			if g.r.IntN(2) == 0 {
				v := float64(1+g.r.IntN(16)) / 2 // 0.5 to 8
				r["highestSystemLoad"] = v
				g.loadAt = lowest(g.loadAt, v)
			}
			if g.r.IntN(2) == 0 {
				v := float64(2+g.r.IntN(19)) / 20 // 0.1 to 1
				r["highestCpuUsage"] = v
				g.cpuAt = lowest(g.cpuAt, v)
			}
			if g.r.IntN(4) == 0 {
				r["qps"] = 3 + g.r.IntN(28)
			}
			if g.r.IntN(5) == 0 {
				r["avgRt"] = 5 + g.r.IntN(200)
			}
			if g.r.IntN(4) == 0 {
				r["maxThread"] = 2 + g.r.IntN(14)
			}
		}
		// Sentinel's default for a field left out is -1; say it sometimes.
		for _, k := range []string{"highestSystemLoad", "highestCpuUsage", "qps", "avgRt", "maxThread"} {
			if _, set := r[k]; !set && g.r.IntN(3) == 0 {
				r[k] = -1
			}
		}
		rules = append(rules, r)
	}
	data, err := json.Marshal(rules)
	if err != nil {
		panic(err)
	}
	g.emit(event{Op: "rules", System: data})
}

// lowest is the lower of cur and v, cur -1 meaning none yet.
func lowest(cur, v float64) float64 {
	if cur < 0 || v < cur {
		return v
	}
	return cur
}

// readings sets the load, the CPU usage or both, near the thresholds in
// force: under, exactly at, over, or unknown.
func (g *systemGen) readings() {
	ev := event{Op: "system-readings"}
	switch g.r.IntN(3) {
	case 0:
		ev.Load = g.near(g.loadAt, 0.5)
	case 1:
		ev.CPU = g.near(g.cpuAt, 0.05)
	default:
		ev.Load, ev.CPU = g.near(g.loadAt, 0.5), g.near(g.cpuAt, 0.05)
	}
	if ev.CPU != nil && *ev.CPU > 1 {
		*ev.CPU = 1
	}
	g.emit(ev)
}

// near is a reading a few steps around threshold (a step's multiple, so
// that "exactly at" is exact on both sides), or -1 (unknown).
func (g *systemGen) near(threshold, step float64) *float64 {
	v := -1.0
	if threshold < 0 {
		threshold = 10 * step
	}
	if g.r.IntN(8) != 0 {
		k := int(threshold/step+0.5) + g.r.IntN(7) - 3
		v = float64(max(k, 0)) * step
	}
	return &v
}

func (g *systemGen) traffic(op string) event {
	ev := event{Op: op, Resource: g.resources[g.r.IntN(len(g.resources))], Type: "in"}
	if op == "call" && g.r.IntN(8) == 0 {
		ev.Resource, ev.Type = "s.out", ""
	}
	if g.r.IntN(10) == 0 {
		n := 2 + g.r.IntN(3)
		ev.Acquire = &n
	}
	return ev
}

func (g *systemGen) call() {
	ev := g.traffic("call")
	ev.RT = g.rt()
	g.emit(ev)
}

func (g *systemGen) hold() {
	ev := g.traffic("entry")
	g.nextID++
	ev.ID = fmt.Sprintf("h%d", g.nextID)
	g.open = append(g.open, ev.ID)
	g.emit(ev)
}

func (g *systemGen) release() {
	if len(g.open) == 0 {
		return
	}
	i := g.r.IntN(len(g.open))
	id := g.open[i]
	g.open = append(g.open[:i], g.open[i+1:]...)
	g.emit(event{Op: "exit", ID: id, RT: g.rt()})
}

// rt is a response time: often 0 (minRt 1 ms, the tightest BBR estimate),
// mostly short, sometimes slow.
func (g *systemGen) rt() int64 {
	switch g.r.IntN(4) {
	case 0:
		return 0
	case 1:
		return int64(50 + g.r.IntN(250))
	}
	return int64(1 + g.r.IntN(20))
}
