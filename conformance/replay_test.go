package conformance

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Both sides start scenario k at startMs + k*gapMs on their clock: the same
// absolute times, so that window buckets line up, and far enough apart that
// nothing a scenario counted is still in a window of the next one.
const (
	startMs = 1_000_000_000
	gapMs   = 10_000_000
)

// goReplay runs scenarios through the runtime, as the Java program's Replay
// does through sentinel-core, and prints the same lines.
type goReplay struct {
	clock *runtime.ManualClock
	open  map[string]runtime.Entry
	// degrade is the last degrade load, to name a breaker by the first rule
	// equal to its own, as the Java side does.
	degrade []runtime.DegradeRule
}

func newGoReplay() *goReplay {
	c := runtime.NewManualClock(time.Duration(startMs) * time.Millisecond)
	runtime.SetClock(c)
	// The scenario decides the load and CPU readings, as FakeSystem does on
	// the Java side: the machine's are never read.
	sysreadings.Pin(-1, -1)
	return &goReplay{clock: c, open: map[string]runtime.Entry{}}
}

// close restores the real clock and readings and clears the rules.
func (g *goReplay) close() error {
	g.reset()
	runtime.SetClock(nil)
	err := runtime.LoadRules(runtime.Rules{})
	sysreadings.Unpin()
	return err
}

// run replays one scenario starting at startNs and returns one output per
// step.
func (g *goReplay) run(steps []step, start time.Duration) []string {
	g.reset()
	g.clock.Set(start)
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = g.event(s.ev)
	}
	g.reset()
	return out
}

func (g *goReplay) reset() {
	for id, e := range g.open {
		e.Exit()
		delete(g.open, id)
	}
	if err := runtime.LoadRules(runtime.Rules{}); err != nil {
		panic(err) // empty rules always load
	}
	sysreadings.Pin(-1, -1)
	g.degrade = nil
}

func (g *goReplay) event(ev event) string {
	switch ev.Op {
	case "rules":
		return g.rules(ev)
	case "advance":
		g.clock.Advance(time.Duration(ev.Ms)*time.Millisecond + time.Duration(ev.Us)*time.Microsecond)
		return "advance"
	case "entry", "call":
		return g.entry(ev)
	case "exit":
		e, ok := g.open[ev.ID]
		delete(g.open, ev.ID)
		g.clock.Advance(time.Duration(ev.RT) * time.Millisecond)
		if !ok {
			return "exit none"
		}
		g.finish(&e, ev.Error)
		return "exit"
	case "check":
		return g.check(ev.Resource)
	case "system-readings":
		load, cpu := sysreadings.Load(), sysreadings.CPU()
		if ev.Load != nil {
			load = *ev.Load
		}
		if ev.CPU != nil {
			cpu = *ev.CPU
		}
		sysreadings.Pin(load, cpu)
		return "system-readings"
	}
	return "error unknown op " + ev.Op
}

// rules loads the kinds the event carries, read by the rules package from
// Sentinel JSON as a Java service's datasource document would be.
func (g *goReplay) rules(ev event) string {
	var err error
	if ev.Flow != nil {
		var s rules.Set
		s, err = rules.Parse(rules.Document{Name: "scenario-flow.json", Data: ev.Flow, Format: rules.FormatJSON, Kind: rules.KindFlow})
		if err == nil {
			err = runtime.LoadFlowRules(s.Flow)
		}
	}
	if err == nil && ev.Degrade != nil {
		var s rules.Set
		s, err = rules.Parse(rules.Document{Name: "scenario-degrade.json", Data: ev.Degrade, Format: rules.FormatJSON, Kind: rules.KindDegrade})
		if err == nil {
			err = runtime.LoadDegradeRules(s.Degrade)
			g.degrade = s.Degrade
		}
	}
	if err == nil {
		err = loadFamilies(ev)
	}
	if err != nil {
		return "rules error: " + strings.ReplaceAll(err.Error(), "\n", "; ")
	}
	return fmt.Sprintf("rules flow=%d degrade=%d", len(runtime.FlowRules()), len(runtime.DegradeRules()))
}

func (g *goReplay) entry(ev event) string {
	traffic := runtime.TrafficOutbound
	if ev.Type == "in" {
		traffic = runtime.TrafficInbound
	}
	res := runtime.NewResource(ev.Resource, runtime.WithTrafficType(traffic))
	ctx := context.Background()
	if ev.Entrance != "" {
		ctx = runtime.WithEntrance(ctx, ev.Entrance)
	}
	if ev.Origin != "" {
		ctx = runtime.WithOrigin(ctx, ev.Origin)
	}
	var opts []runtime.EntryOption
	if ev.Acquire != nil {
		opts = append(opts, runtime.AcquireCount(*ev.Acquire))
	}
	if ev.Prioritized {
		opts = append(opts, runtime.Prioritized())
	}
	before := g.clock.Nanotime()
	var e runtime.Entry
	be := res.EntryArgsTo(&e, ctx, paramArgs(ev.Args), opts...)
	wait := ""
	if waited := g.clock.Nanotime() - before; waited > 0 {
		wait = " wait=" + strconv.FormatInt(waited, 10)
	}
	if be != nil {
		return g.block(be) + wait
	}
	out := "pass" + wait
	switch {
	case ev.Op == "call":
		g.clock.Advance(time.Duration(ev.RT) * time.Millisecond)
		g.finish(&e, ev.Error)
	case ev.ID != "":
		g.open[ev.ID] = e
	}
	return out
}

func (g *goReplay) finish(e *runtime.Entry, failed bool) {
	if failed {
		e.TraceError(errBusiness)
	}
	e.Exit()
}

// block names the rule kind; for a breaker also its index (see Replay.java:
// Java's flow rules are checked in hash order, so which flow rule blocked is
// not compared).
func (g *goReplay) block(be *runtime.BlockError) string {
	switch be.Type() {
	case runtime.BlockTypeFlow:
		return "block flow"
	case runtime.BlockTypeParamFlow, runtime.BlockTypeSystem, runtime.BlockTypeAuthority:
		return blockFamily(be)
	}
	// The rule text starts "degrade rule #N (": N indexes the load.
	text := strings.TrimPrefix(be.Rule(), "degrade rule #")
	n, err := strconv.Atoi(text[:max(strings.IndexByte(text, ' '), 0)])
	if err != nil || n >= len(g.degrade) {
		return "block degrade ?" + be.Rule()
	}
	want := rules.NormalizeDegrade(g.degrade[n])
	for i, r := range g.degrade {
		if rules.NormalizeDegrade(r) == want {
			return "block degrade #" + strconv.Itoa(i)
		}
	}
	return "block degrade #" + strconv.Itoa(n)
}

func (g *goReplay) check(resource string) string {
	res := runtime.NewResource(resource)
	var b strings.Builder
	b.WriteString("breakers=")
	states := res.BreakerStates()
	for i, s := range states {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.String())
	}
	if len(states) == 0 {
		b.WriteByte('-')
	}
	s := res.Snapshot()
	fmt.Fprintf(&b, " pass=%d block=%d success=%d error=%d threads=%d", s.Pass, s.Block, s.Success, s.Error, s.Concurrency)
	return b.String()
}

type businessError struct{}

func (businessError) Error() string { return "business failure" }

var errBusiness error = businessError{}
