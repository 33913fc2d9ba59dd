package rules

import (
	"context"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Persist registers w as the place rule changes are saved to: after every
// change made through the runtime API (runtime.LoadFlowRules,
// LoadDegradeRules, LoadRules, rules.Apply) it writes the complete set in
// force (Current) to w, so the rules survive a restart; it is Sentinel's
// WritableDataSource registration.
//
// Changes are gathered for WithDebounce (50 ms by default), so one LoadRules
// (a flow and a degrade notification) or a burst of calls makes one write.
// Nothing is written when the rules equal the last set written, or the set a
// Watcher of the same store (e.g. WatchFile on the same path) last put in
// force: those are there already, and writing them back could undo a newer
// edit the watcher has not read yet. The rules in force when Persist is
// called are not written; only changes are. A failed write is logged at
// Error level and retried with the next change.
//
// stop unregisters Persist and waits for a pending write to finish (a change
// not yet written is written first). It must not be called from a rule
// listener.
func Persist(w WritableSource, opts ...Option) (stop func()) {
	cfg := newConfig(opts)
	p := &persister{
		dest:    w,
		name:    sourceName(w),
		cfg:     cfg,
		changed: make(chan struct{}, 1),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	if id, ok := w.(Identified); ok {
		p.key = id.Identity()
	}
	unregisterFlow := runtime.OnFlowRulesChange(skipFirst(func([]runtime.FlowRule) { p.signal() }))
	unregisterDegrade := runtime.OnDegradeRulesChange(skipFirst(func([]runtime.DegradeRule) { p.signal() }))
	go p.run()
	return sync.OnceFunc(func() {
		unregisterFlow()
		unregisterDegrade()
		close(p.quit)
		<-p.done
	})
}

// skipFirst wraps a rule listener so it ignores the call the runtime makes at
// registration: Persist saves changes, not the rules it found. The runtime
// serialises listener calls, so the flag needs no lock.
func skipFirst[T any](fn func([]T)) func([]T) {
	first := true
	return func(rules []T) {
		if first {
			first = false
			return
		}
		fn(rules)
	}
}

// persister is Persist's state.
type persister struct {
	dest    WritableSource
	name    string
	key     string
	cfg     config
	changed chan struct{} // holds one token while a change is unwritten
	quit    chan struct{}
	done    chan struct{}

	last    Set
	hasLast bool
}

// signal notes a change. It runs inside the runtime's rule listeners, under
// the runtime's rule lock, so it must neither block nor read the rules.
func (p *persister) signal() {
	select {
	case p.changed <- struct{}{}:
	default: // a write is already due; it will read the latest rules
	}
}

// run writes after each debounced burst of changes until quit.
func (p *persister) run() {
	defer close(p.done)
	for {
		select {
		case <-p.changed:
		case <-p.quit:
			p.flush()
			return
		}
		t := time.NewTimer(p.cfg.debounce)
		select {
		case <-t.C:
		case <-p.quit:
			t.Stop()
			p.save()
			return
		}
		// Changes during the wait are covered by this write.
		select {
		case <-p.changed:
		default:
		}
		p.save()
	}
}

// flush writes a change still pending at stop.
func (p *persister) flush() {
	select {
	case <-p.changed:
		p.save()
	default:
	}
}

// save writes the rules in force unless they are known to be there.
func (p *persister) save() {
	set := Current()
	if p.hasLast && p.last.Equal(set) {
		return
	}
	if cameFrom(p.key, set) {
		p.last, p.hasLast = set, true
		return
	}
	if err := p.dest.Write(context.Background(), set); err != nil {
		p.cfg.logger.Error("persisting rules failed; they stay in force but will not survive a restart",
			"source", p.name, "error", err.Error())
		return
	}
	p.last, p.hasLast = set, true
	p.cfg.logger.Info("rules persisted", "source", p.name, "flow", len(set.Flow), "degrade", len(set.Degrade))
}
