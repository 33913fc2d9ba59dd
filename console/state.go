package console

import (
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// State is what api/state answers: everything the page shows.
type State struct {
	// Title heads the page.
	Title string `json:"title"`
	// NowMs is the wall time of the answer, Unix ms.
	NowMs int64 `json:"nowMs"`
	// LatestMs is the start of the latest completed second (0 before the
	// first).
	LatestMs int64 `json:"latestMs"`
	// Resources are the sampled resources, by name.
	Resources []ResourceState `json:"resources"`
	// Transitions are the latest breaker state changes, newest first.
	Transitions []Transition `json:"transitions"`
	// Flow and Degrade are the rules in force, in load order.
	Flow    []FlowRuleView    `json:"flow"`
	Degrade []DegradeRuleView `json:"degrade"`
	// Others are the rules in force of every other kind: hot-parameter,
	// system, authority and gateway rules.
	Others []RuleView `json:"others"`
	// Refused is the rule pushes the command center refused; nil when
	// Config.Refusals is not set.
	Refused *RefusedPushes `json:"refused,omitempty"`
}

// RefusedPushes is the count of refused rule pushes and the last one.
type RefusedPushes struct {
	Count int64 `json:"count"`
	// LastAtMs is when the last one was refused, Unix ms (0 before any).
	LastAtMs int64  `json:"lastAtMs"`
	Kind     string `json:"kind,omitempty"`
	Caller   string `json:"caller,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// ResourceState is one resource: its latest completed second, its history
// and its breakers.
type ResourceState struct {
	Name string `json:"name"`
	// Last is the latest completed second (its T is 0 when none yet).
	Last Point `json:"last"`
	// Concurrency is the number of calls in flight now.
	Concurrency int64 `json:"concurrency"`
	// Series is the last History seconds, oldest first; seconds the sampler
	// has not kept are left out.
	Series []Point `json:"series"`
	// Breakers are the resource's circuit breakers, in rule order.
	Breakers []BreakerView `json:"breakers"`
	// Blocked is what each rule in force has blocked since it was loaded.
	Blocked []RuleCount `json:"blocked"`
}

// Point is one second of a resource.
type Point struct {
	// T is the second's start, Unix ms.
	T       int64 `json:"t"`
	Pass    int64 `json:"pass"`
	Block   int64 `json:"block"`
	Success int64 `json:"success"`
	Error   int64 `json:"error"`
	// RTMs is the mean response time in ms (Sentinel's integer division).
	RTMs int64 `json:"rtMs"`
	// Partial marks a second the sampler read too late to count whole.
	Partial bool `json:"partial,omitempty"`
}

// BreakerView is a circuit breaker's state.
type BreakerView struct {
	Rule  string `json:"rule"`
	State string `json:"state"`
}

// RuleCount is the blocks of one rule.
type RuleCount struct {
	Rule    string `json:"rule"`
	Type    string `json:"type"`
	Blocked int64  `json:"blocked"`
}

// Transition is one breaker state change.
type Transition struct {
	AtMs     int64   `json:"atMs"`
	Resource string  `json:"resource"`
	Rule     string  `json:"rule"`
	From     string  `json:"from"`
	To       string  `json:"to"`
	Value    float64 `json:"value"`
}

// FlowRuleView is a flow rule as the page lists it.
type FlowRuleView struct {
	Resource  string  `json:"resource"`
	Grade     string  `json:"grade"`
	Count     float64 `json:"count"`
	LimitApp  string  `json:"limitApp,omitempty"`
	Strategy  string  `json:"strategy"`
	Ref       string  `json:"ref,omitempty"`
	Behavior  string  `json:"behavior"`
	Cluster   bool    `json:"cluster,omitempty"`
	Interval  int     `json:"statIntervalMs,omitempty"`
	WarmUpSec int     `json:"warmUpSec,omitempty"`
	QueueMs   int     `json:"maxQueueingMs,omitempty"`
}

// DegradeRuleView is a degrade rule as the page lists it.
type DegradeRuleView struct {
	Resource      string  `json:"resource"`
	Grade         string  `json:"grade"`
	Count         float64 `json:"count"`
	SlowRatio     float64 `json:"slowRatio,omitempty"`
	TimeWindowSec int     `json:"timeWindowSec"`
	MinRequest    int     `json:"minRequestAmount,omitempty"`
	Interval      int     `json:"statIntervalMs,omitempty"`
	Text          string  `json:"text"`
}

// State reads everything the page shows, now.
func (c *Console) State() State {
	s := c.cfg.Sampler
	st := State{Title: c.cfg.Title, NowMs: c.cfg.Now().UnixMilli(), LatestMs: s.Latest()}
	if c.cfg.Refusals != nil {
		r := c.cfg.Refusals()
		st.Refused = &RefusedPushes{Count: r.Count, Kind: r.Last.Kind, Caller: r.Last.Caller, Reason: r.Last.Reason}
		if !r.Last.At.IsZero() {
			st.Refused.LastAtMs = r.Last.At.UnixMilli()
		}
	}
	live := map[string]*runtime.Resource{}
	for _, r := range runtime.Resources() {
		live[r.Name()] = r
	}
	for _, stat := range s.Stats() {
		rs := ResourceState{Name: stat.Name, Last: point(stat.Last), Concurrency: stat.Last.Concurrency}
		if stat.Last.Time == 0 {
			rs.Last = Point{}
		}
		if st.LatestMs != 0 {
			for _, sec := range s.Seconds(stat.Name, st.LatestMs-int64(c.cfg.History-1)*1000, st.LatestMs) {
				rs.Series = append(rs.Series, point(sec))
			}
		}
		if r := live[stat.Name]; r != nil {
			rs.Concurrency = r.Concurrency()
			errs := r.BlockErrors(nil)
			states := r.BreakerStates()
			var degrade []*runtime.BlockError
			for _, e := range errs {
				rs.Blocked = append(rs.Blocked, RuleCount{Rule: e.Rule(), Type: e.Type().String(), Blocked: int64(e.Blocked())})
				if e.Type() == runtime.BlockTypeDegrade {
					degrade = append(degrade, e)
				}
			}
			for i, state := range states {
				v := BreakerView{State: state.String(), Rule: "degrade rule " + strconv.Itoa(i)}
				if len(degrade) == len(states) { // else the reads straddled a load
					v.Rule = degrade[i].Rule()
				}
				rs.Breakers = append(rs.Breakers, v)
			}
		}
		st.Resources = append(st.Resources, rs)
	}
	c.mu.Lock()
	for i := len(c.transitions) - 1; i >= 0; i-- {
		st.Transitions = append(st.Transitions, c.transitions[i])
	}
	c.mu.Unlock()
	for _, r := range runtime.FlowRules() {
		st.Flow = append(st.Flow, flowView(r))
	}
	for _, r := range runtime.DegradeRules() {
		st.Degrade = append(st.Degrade, DegradeRuleView{
			Resource: r.Resource, Grade: degradeGrade(r.Grade), Count: r.Count, SlowRatio: r.SlowRatioThreshold,
			TimeWindowSec: r.TimeWindowSec, MinRequest: r.MinRequestAmount, Interval: r.StatIntervalMs,
			Text: describeDegrade(r),
		})
	}
	st.Others = otherRules()
	// Empty lists as [] rather than null, for the page's script.
	if st.Resources == nil {
		st.Resources = []ResourceState{}
	}
	if st.Transitions == nil {
		st.Transitions = []Transition{}
	}
	if st.Others == nil {
		st.Others = []RuleView{}
	}
	return st
}

func point(s metrics.Second) Point {
	return Point{T: s.Time, Pass: s.Pass, Block: s.Block, Success: s.Success, Error: s.Exception, RTMs: s.AvgRTMs(), Partial: s.Partial}
}

func flowView(r runtime.FlowRule) FlowRuleView {
	v := FlowRuleView{Resource: r.Resource, Count: r.Count, LimitApp: r.LimitApp, Ref: r.RefResource,
		Cluster: r.ClusterMode, Interval: r.StatIntervalMs, WarmUpSec: r.WarmUpPeriodSec, QueueMs: r.MaxQueueingTimeMs}
	v.Grade = "QPS"
	if r.Grade == runtime.FlowGradeConcurrency {
		v.Grade = "concurrency"
	}
	switch r.Strategy {
	case runtime.StrategyRelate:
		v.Strategy = "relate"
	case runtime.StrategyChain:
		v.Strategy = "chain"
	default:
		v.Strategy = "direct"
	}
	switch r.ControlBehavior {
	case runtime.BehaviorWarmUp:
		v.Behavior = "warm-up"
	case runtime.BehaviorRateLimiter:
		v.Behavior = "rate limiter"
	case runtime.BehaviorWarmUpRateLimiter:
		v.Behavior = "warm-up rate limiter"
	default:
		v.Behavior = "reject"
	}
	return v
}

func degradeGrade(g runtime.DegradeGrade) string {
	switch g {
	case runtime.DegradeSlowRatio:
		return "slow ratio"
	case runtime.DegradeErrorRatio:
		return "error ratio"
	case runtime.DegradeErrorCount:
		return "error count"
	}
	return "grade " + strconv.Itoa(int(g))
}

// describeDegrade is a one-line summary of a degrade rule.
func describeDegrade(r runtime.DegradeRule) string {
	switch r.Grade {
	case runtime.DegradeSlowRatio:
		return fmt.Sprintf("slow ratio > %g of calls over %g ms, open %d s", r.SlowRatioThreshold, r.Count, r.TimeWindowSec)
	case runtime.DegradeErrorRatio:
		return fmt.Sprintf("error ratio > %g, open %d s", r.Count, r.TimeWindowSec)
	}
	return fmt.Sprintf("%s > %g, open %d s", degradeGrade(r.Grade), r.Count, r.TimeWindowSec)
}
