package runtime

import (
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
)

// systemGuard is the system protection in force, nil while no system rule
// sets a threshold. Entry reads it once per call of an inbound resource.
var systemGuard atomic.Pointer[systemCheck]

// System protection's metrics, in Sentinel's check order, with the names
// its SystemBlockException gives them.
const (
	sysQPS = iota
	sysThread
	sysRT
	sysLoad
	sysCPU
	sysMetrics
)

var sysMetricNames = [sysMetrics]string{"qps", "thread", "rt", "load", "cpu"}

// systemCheck is the combined thresholds of the system rules in force
// (negative: unset) and the inbound aggregate they are checked against.
type systemCheck struct {
	qps, load, cpu   float64
	avgRt, maxThread int64
	// errs holds each inbound resource's block errors, one per metric, made
	// at the resource's first system block and kept.
	errs sync.Map // *Resource -> *[sysMetrics]*BlockError
}

// combineSystemRules is Sentinel's SystemRuleManager.loadSystemConf without
// its on/off bug: each field of each rule that is set (not negative)
// lowers that threshold to the minimum over the rules. Protection is on
// when any threshold is set, whatever the order of the rules (Sentinel sets
// its switch from the last rule alone, so a trailing rule with no field set
// turns protection off). nil when no threshold is set.
func combineSystemRules(rules []SystemRule) *systemCheck {
	g := &systemCheck{qps: -1, load: -1, cpu: -1, avgRt: -1, maxThread: -1}
	set := false
	lower := func(cur *float64, v float64) {
		if v >= 0 {
			*cur = minSet(*cur, v)
			set = true
		}
	}
	for _, r := range rules {
		lower(&g.load, r.HighestSystemLoad)
		lower(&g.cpu, r.HighestCPUUsage)
		lower(&g.qps, r.QPS)
		if r.AvgRT >= 0 {
			g.avgRt = int64(minSet(float64(g.avgRt), float64(r.AvgRT)))
			set = true
		}
		if r.MaxThread >= 0 {
			g.maxThread = int64(minSet(float64(g.maxThread), float64(r.MaxThread)))
			set = true
		}
	}
	if !set {
		return nil
	}
	return g
}

// minSet is the lower of cur and v, cur negative meaning unset.
func minSet(cur, v float64) float64 {
	if cur < 0 {
		return v
	}
	return math.Min(cur, v)
}

// threshold is the text a block error gives the tripped metric.
func (g *systemCheck) threshold(metric int) string {
	switch metric {
	case sysQPS:
		return strconv.FormatFloat(g.qps, 'g', -1, 64)
	case sysThread:
		return strconv.FormatInt(g.maxThread, 10)
	case sysRT:
		return strconv.FormatInt(g.avgRt, 10)
	case sysLoad:
		return strconv.FormatFloat(g.load, 'g', -1, 64)
	}
	return strconv.FormatFloat(g.cpu, 'g', -1, 64)
}

// check decides an inbound call at nowMs, as Sentinel's
// SystemRuleManager.checkSystem: QPS, calls in flight, mean response time,
// load (with the BBR estimate), CPU usage. It returns the block error of
// the first metric over its threshold, nil when the call may proceed.
func (g *systemCheck) check(r *Resource, nowMs, acquire int64) *BlockError {
	v := inboundStats.view(nowMs)
	threads := inboundStats.inFlight.Load()
	switch {
	case g.qps >= 0 && float64(v.pass+acquire) > g.qps:
		return g.blocked(r, sysQPS)
	case g.maxThread >= 0 && threads > g.maxThread:
		return g.blocked(r, sysThread)
	case g.avgRt >= 0 && v.avgRt() > float64(g.avgRt):
		return g.blocked(r, sysRT)
	}
	if g.load >= 0 {
		// BBR: with load over the threshold, refuse only when more calls
		// are in flight than the best observed throughput times the least
		// response time can serve.
		if load := sysreadings.Load(); load > g.load && threads > 1 && float64(threads) > v.maxSuccessQps()*float64(v.minRt)/1000 {
			return g.blocked(r, sysLoad)
		}
	}
	if g.cpu >= 0 && sysreadings.CPU() > g.cpu {
		return g.blocked(r, sysCPU)
	}
	return nil
}

// blocked is r's block error for metric, made at its first use.
func (g *systemCheck) blocked(r *Resource, metric int) *BlockError {
	errs, ok := g.errs.Load(r)
	if !ok {
		var made [sysMetrics]*BlockError
		for m := range made {
			made[m] = newBlockError(BlockTypeSystem, r.name, "system "+sysMetricNames[m]+" "+g.threshold(m))
		}
		errs, _ = g.errs.LoadOrStore(r, &made)
	}
	return errs.(*[sysMetrics]*BlockError)[metric]
}

// installSystemRules puts the thresholds of rules in force and starts or
// stops the sampler. Callers hold rulesInForce's lock and have validated
// the rules.
func installSystemRules(rules []SystemRule) {
	g := combineSystemRules(rules)
	if g != nil && systemGuard.Load() == nil {
		// Counts left from an earlier time protection was on are no
		// longer what the calls do.
		inboundStats.forget()
	}
	systemGuard.Store(g)
	if g != nil {
		startSystemSampler()
	} else {
		stopSystemSampler()
	}
}
