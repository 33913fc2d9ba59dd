package rules

import (
	"errors"
	"sync"
	"sync/atomic"
)

// One writer for the rules in force: every change made through this
// package (Apply, Update, and through them each data source's update and
// each dashboard push) reads the rules in force, builds the next set and
// puts it in force under updateMu, so two changes of different kinds never
// undo each other by writing back what the other had just replaced.
var (
	updateMu   sync.Mutex
	generation atomic.Uint64
)

// ErrUnchanged is what an Update function returns to leave the rules in
// force as they are without reloading them: Update then returns the current
// generation and a nil error.
var ErrUnchanged = errors.New("rules: unchanged")

// Update is the read-modify-write of the rules in force. It calls fn with
// the rules in force (Current) and puts the set fn returns in force as
// Apply does (validated, parameter names resolved, every kind together),
// all while holding the lock every other Update and Apply take, so no other
// change made through this package lands between the read and the write.
//
// A refused set (fn's error, or a set that does not validate) changes
// nothing and returns the error with the generation in force. A set put in
// force advances the generation by one and returns the new one. fn runs
// under the lock: it must not call Update or Apply, and should not block.
//
// Rules loaded with runtime.LoadRules, its per-kind loaders or
// gateway.Load directly do not take this lock; load through Apply or
// Update to be serialized with the data sources and the dashboard.
func Update(fn func(cur Set) (Set, error)) (gen uint64, err error) {
	updateMu.Lock()
	defer updateMu.Unlock()
	cur := Current()
	next, err := fn(cur)
	if errors.Is(err, ErrUnchanged) {
		return generation.Load(), nil
	}
	if err != nil {
		return generation.Load(), err
	}
	if equalGateway(next, cur) {
		// The gateway's rules and definitions stay as they are: leave
		// them out rather than load them again.
		next.GatewayFlow, next.APIGroups, next.HasGateway = nil, nil, false
		next.GatewayFlowAt, next.APIGroupsAt = nil, nil
	}
	if err := apply(next); err != nil {
		return generation.Load(), err
	}
	return generation.Add(1), nil
}

// Generation returns how many sets Apply and Update have put in force since
// the program started; each successful change advances it by one, a
// refused one leaves it.
func Generation() uint64 { return generation.Load() }

// Replace returns s with its rules of each kind in kinds taken from o, the
// rules of every other kind left as they are: how a source that owns some
// kinds updates the rules in force without touching the others. Positions
// of a replaced kind come from o. Naming a gateway kind makes the result
// carry HasGateway, so that Apply puts the gateway's rules in force too.
func (s Set) Replace(o Set, kinds ...Kind) Set {
	for _, k := range kinds {
		switch k {
		case KindFlow:
			s.Flow, s.FlowAt = o.Flow, o.FlowAt
		case KindDegrade:
			s.Degrade, s.DegradeAt = o.Degrade, o.DegradeAt
		case KindParamFlow:
			s.ParamFlow, s.ParamFlowAt = o.ParamFlow, o.ParamFlowAt
			s.ParamFlowParam = o.ParamFlowParam
		case KindSystem:
			s.System, s.SystemAt = o.System, o.SystemAt
		case KindAuthority:
			s.Authority, s.AuthorityAt = o.Authority, o.AuthorityAt
		case KindGatewayFlow:
			s.GatewayFlow, s.GatewayFlowAt, s.HasGateway = o.GatewayFlow, o.GatewayFlowAt, true
		case KindAPIGroup:
			s.APIGroups, s.APIGroupsAt, s.HasGateway = o.APIGroups, o.APIGroupsAt, true
		}
	}
	return s
}

// Held returns the kinds s has at least one rule of, in the order Kinds
// lists them, the gateway's kinds last; a set with HasGateway holds both
// gateway kinds even when they are empty, since Apply replaces them.
func (s Set) Held() []Kind {
	n := map[Kind]int{KindFlow: len(s.Flow), KindDegrade: len(s.Degrade), KindParamFlow: len(s.ParamFlow),
		KindSystem: len(s.System), KindAuthority: len(s.Authority)}
	var out []Kind
	for _, k := range allKinds {
		if n[k] > 0 {
			out = append(out, k)
		}
	}
	if s.HasGateway || len(s.GatewayFlow)+len(s.APIGroups) > 0 {
		out = append(out, gatewayKinds...)
	}
	return out
}

// AllKinds returns every kind a Set holds: Kinds followed by the gateway's
// two kinds.
func AllKinds() []Kind { return append(Kinds(), gatewayKinds...) }
