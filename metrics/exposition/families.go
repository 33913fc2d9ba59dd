// Package exposition turns the runtime's statistics into metric families
// for Prometheus, read at scrape time: nothing is counted on the request
// path for them. It has no dependency beyond the standard library; the
// nested module metrics/prometheus adapts its families to client_golang's
// Collector, and WriteText writes them in Prometheus's text format for
// programs that do not want client_golang (the example serves /metrics so).
//
// Counters of calls come from a metrics.Sampler (which must be started:
// it reads the runtime's second window twice a second, and a bucket it
// misses is lost), so they trail the calls by up to a second. Block counts
// come from the runtime's per-rule counters (runtime.BlockError.Blocked)
// and are current. The runtime keeps no response-time histogram (a bucket
// per call would be a per-call cost), so response times are a sum in
// seconds beside the count of completed calls.
package exposition

import (
	"strconv"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Kind is a metric family's type.
type Kind int

const (
	// Counter only grows (it restarts from zero with the process).
	Counter Kind = iota
	// Gauge goes up and down.
	Gauge
)

// Family is one metric name with its samples.
type Family struct {
	// Name is the metric name (Prometheus conventions: sentinel_ prefix,
	// _total for counters, base units).
	Name string
	// Help is the one-line description.
	Help string
	// Kind is the metric type.
	Kind Kind
	// Labels are the label names, in the order of Sample.Labels.
	Labels []string
	// Samples are the series: resources in name order, rules in load order.
	Samples []Sample
}

// Sample is one series of a family.
type Sample struct {
	// Labels are the label values, in the order of Family.Labels.
	Labels []string
	// Value is the sample value.
	Value float64
}

// The families' names.
const (
	Requests           = "sentinel_requests_total"
	Errors             = "sentinel_errors_total"
	Completed          = "sentinel_completed_total"
	ResponseTime       = "sentinel_response_time_seconds_total"
	Concurrency        = "sentinel_concurrency"
	BreakerState       = "sentinel_circuit_breaker_state"
	RuleBlocked        = "sentinel_rule_blocked_total"
	FlowThreshold      = "sentinel_flow_rule_threshold"
	DegradeThreshold   = "sentinel_degrade_rule_threshold"
	DegradeSlowRT      = "sentinel_degrade_rule_slow_response_time_seconds"
	PartialSeconds     = "sentinel_sampler_partial_seconds_total"
	RefusedPushes      = "sentinel_transport_refused_pushes_total"
	LastRefusedPush    = "sentinel_transport_last_refused_push_timestamp_seconds"
	resultPass         = "pass"
	resultBlock        = "block"
	labelResource      = "resource"
	labelRule          = "rule"
	labelIndex         = "index"
	labelGrade         = "grade"
	labelBlockType     = "block_type"
	stateClosedLabel   = "closed"
	stateOpenLabel     = "open"
	stateHalfOpenLabel = "half_open"
)

// descriptions is every family the Exporter writes, without samples, in
// the order Families returns them.
var descriptions = []Family{
	{Name: Requests, Kind: Counter, Labels: []string{labelResource, "result", labelBlockType},
		Help: "Calls by result: pass (admitted) or block, with the kind of rule that blocked (flow, degrade, param-flow, system, authority)."},
	{Name: Errors, Kind: Counter, Labels: []string{labelResource},
		Help: "Completed calls with a traced error."},
	{Name: Completed, Kind: Counter, Labels: []string{labelResource},
		Help: "Completed calls (Exit), failed ones included."},
	{Name: ResponseTime, Kind: Counter, Labels: []string{labelResource},
		Help: "Sum of the completed calls' response times; divide its rate by sentinel_completed_total's for the mean."},
	{Name: Concurrency, Kind: Gauge, Labels: []string{labelResource},
		Help: "Calls in flight."},
	{Name: BreakerState, Kind: Gauge, Labels: []string{labelResource, labelRule, "state"},
		Help: "Circuit breaker state: 1 for the breaker's current state (closed, open, half_open), 0 for the others."},
	{Name: RuleBlocked, Kind: Counter, Labels: []string{labelResource, labelBlockType, labelRule},
		Help: "Calls each rule in force blocked since it was loaded."},
	{Name: FlowThreshold, Kind: Gauge, Labels: []string{labelResource, labelIndex, labelGrade},
		Help: "Flow rule threshold: calls per second (grade qps) or calls in flight (grade concurrency); index is the rule's position in the rules in force."},
	{Name: DegradeThreshold, Kind: Gauge, Labels: []string{labelResource, labelIndex, labelGrade},
		Help: "Degrade rule threshold: the slow-call ratio (slow_ratio), the error ratio (error_ratio) or the error count (error_count) above which the breaker opens."},
	{Name: DegradeSlowRT, Kind: Gauge, Labels: []string{labelResource, labelIndex},
		Help: "Response time above which a slow_ratio degrade rule counts a call as slow."},
	{Name: PartialSeconds, Kind: Counter, Labels: []string{labelResource},
		Help: "Seconds the sampler read too late to count whole: the call counters are short by what those seconds lost."},
	{Name: RefusedPushes, Kind: Counter, Labels: []string{},
		Help: "Rule pushes the command center refused (read-only, invalid, over a cap, not allowed); the dashboard shows some of them as saved."},
	{Name: LastRefusedPush, Kind: Gauge, Labels: []string{},
		Help: "When the command center last refused a rule push, Unix seconds (0 before any)."},
}

// Descriptions returns every family the Exporter writes, without samples.
func Descriptions() []Family {
	out := make([]Family, len(descriptions))
	for i, d := range descriptions {
		d.Labels = append([]string(nil), d.Labels...)
		out[i] = d
	}
	return out
}

// blockKey names a total of blocks by resource and rule kind.
type blockKey struct {
	resource string
	typ      runtime.BlockType
}

// ruleCount is a rule's Blocked at the last scrape and its total since the
// exporter first saw it.
type ruleCount struct {
	seen  uint32
	total int64
}

// Exporter reads the statistics at scrape time. Its methods may be called
// from several goroutines.
type Exporter struct {
	sampler *metrics.Sampler

	mu sync.Mutex
	// last is each rule's Blocked at the last scrape and its total so far
	// (Blocked wraps at 2³²); blocks sums the growth by resource and kind,
	// so that the counter keeps what rules since removed had blocked (up
	// to their last scrape).
	last   map[*runtime.BlockError]ruleCount
	blocks map[blockKey]int64
	buf    []*runtime.BlockError

	refusals func() (count int64, last time.Time) // see WithPushRefusals
}

// WithPushRefusals makes x write the command center's refused pushes
// (RefusedPushes, LastRefusedPush) read from read at every scrape, e.g.
//
//	x.WithPushRefusals(func() (int64, time.Time) { r := srv.Refusals(); return r.Count, r.Last.At })
//
// for a transport.Server srv. It returns x; call it before x is shared.
func (x *Exporter) WithPushRefusals(read func() (count int64, last time.Time)) *Exporter {
	x.refusals = read
	return x
}

// New returns an Exporter of the resources s samples. s must be started
// (metrics.Sampler.Start) for the call counters to grow.
func New(s *metrics.Sampler) *Exporter {
	return &Exporter{sampler: s, last: map[*runtime.BlockError]ruleCount{}, blocks: map[blockKey]int64{}}
}

// Families reads the statistics now and returns every family, in the order
// of Descriptions, with the series of every resource the sampler tracks.
func (x *Exporter) Families() []Family {
	fams := Descriptions()
	byName := make(map[string]*Family, len(fams))
	for i := range fams {
		byName[fams[i].Name] = &fams[i]
	}
	add := func(name string, v float64, labels ...string) {
		f := byName[name]
		f.Samples = append(f.Samples, Sample{Labels: labels, Value: v})
	}
	resources := map[string]*runtime.Resource{}
	for _, r := range runtime.Resources() {
		resources[r.Name()] = r
	}

	x.mu.Lock()
	defer x.mu.Unlock()
	seen := make(map[*runtime.BlockError]ruleCount, len(x.last))
	for _, st := range x.sampler.Stats() {
		name, t := st.Name, st.Totals
		add(Requests, float64(t.Pass), name, resultPass, "")
		r := resources[name]
		var errs []*runtime.BlockError
		if r != nil {
			x.buf = r.BlockErrors(x.buf[:0])
			errs = x.buf
		}
		for _, e := range errs {
			n, prev := e.Blocked(), x.last[e]
			// uint32 arithmetic: the counter wraps; the totals do not.
			d := int64(n - prev.seen)
			seen[e] = ruleCount{seen: n, total: prev.total + d}
			x.blocks[blockKey{name, e.Type()}] += d
		}
		for typ := runtime.BlockTypeFlow; typ <= runtime.BlockTypeAuthority; typ++ {
			if n, ok := x.blocks[blockKey{name, typ}]; ok {
				add(Requests, float64(n), name, resultBlock, typ.String())
			}
		}
		add(Errors, float64(t.Exception), name)
		add(Completed, float64(t.Success), name)
		add(ResponseTime, float64(t.RTSumMs)/1000, name)
		if r != nil {
			add(Concurrency, float64(r.Concurrency()), name)
			x.breakers(add, name, r, errs)
		} else {
			add(Concurrency, float64(st.Last.Concurrency), name)
		}
		for _, e := range errs {
			add(RuleBlocked, float64(seen[e].total), name, e.Type().String(), e.Rule())
		}
		add(PartialSeconds, float64(t.PartialSeconds), name)
	}
	clear(x.buf)
	x.last = seen
	x.rules(add)
	if x.refusals != nil {
		n, at := x.refusals()
		add(RefusedPushes, float64(n))
		last := 0.0
		if !at.IsZero() {
			last = float64(at.UnixMilli()) / 1000
		}
		add(LastRefusedPush, last)
	}
	return fams
}

// breakers adds the state series of r's circuit breakers, named by their
// rules' descriptions (the degrade entries of errs, in the same order).
func (x *Exporter) breakers(add func(string, float64, ...string), name string, r *runtime.Resource, errs []*runtime.BlockError) {
	states := r.BreakerStates()
	var rules []string
	for _, e := range errs {
		if e.Type() == runtime.BlockTypeDegrade {
			rules = append(rules, e.Rule())
		}
	}
	// The two reads can straddle a rule load; the next scrape pairs them.
	if len(rules) != len(states) {
		return
	}
	for i, s := range states {
		for _, st := range []struct {
			state runtime.BreakerState
			label string
		}{{runtime.StateClosed, stateClosedLabel}, {runtime.StateOpen, stateOpenLabel}, {runtime.StateHalfOpen, stateHalfOpenLabel}} {
			v := 0.0
			if s == st.state {
				v = 1
			}
			add(BreakerState, v, name, rules[i], st.label)
		}
	}
}

// rules adds the thresholds of the flow and degrade rules in force.
func (x *Exporter) rules(add func(string, float64, ...string)) {
	for i, r := range runtime.FlowRules() {
		grade := "qps"
		if r.Grade == runtime.FlowGradeConcurrency {
			grade = "concurrency"
		}
		add(FlowThreshold, r.Count, r.Resource, strconv.Itoa(i), grade)
	}
	for i, r := range runtime.DegradeRules() {
		idx := strconv.Itoa(i)
		switch r.Grade {
		case runtime.DegradeSlowRatio:
			add(DegradeThreshold, r.SlowRatioThreshold, r.Resource, idx, "slow_ratio")
			add(DegradeSlowRT, r.Count/1000, r.Resource, idx)
		case runtime.DegradeErrorRatio:
			add(DegradeThreshold, r.Count, r.Resource, idx, "error_ratio")
		case runtime.DegradeErrorCount:
			add(DegradeThreshold, r.Count, r.Resource, idx, "error_count")
		}
	}
}
