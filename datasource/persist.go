package datasource

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Persist registers dest as the place rule changes are saved to: after every
// change made through the runtime API (runtime.LoadRules, the per-kind
// loaders such as LoadFlowRules or LoadParamFlowRules, rules.Apply), of any
// rule kind, it writes the complete set in
// force (rules.Current) to dest, so the rules survive a restart; it is
// Sentinel's WritableDataSource registration.
//
// Changes are gathered for WithDebounce (50 ms by default), so one LoadRules
// (a notification per kind) or a burst of calls makes one write.
// Nothing is written when the rules equal the last set written. The rules in
// force when Persist is called are not written; only changes are. A failed
// write is logged at Error level and retried with the next change.
//
// For the store a Watcher reads, use Watcher.Persist instead: Persist does
// not know where the rules in force came from, and would write the rules the
// watcher just read back to their store, which may have moved on since.
//
// stop unregisters Persist and waits for a pending write to finish (a change
// not yet written is written first). It must not be called from a rule
// listener.
func Persist(dest WritableSource, opts ...PersistOption) (stop func()) {
	return persist(dest, nil, opts)
}

// Persist is Persist(source, opts...) for the Source w reads, which must be
// a WritableSource (the file and etcd sources are), with two differences.
// A watcher bound to kinds with WithKinds writes back only those: the rules
// in force of its kinds, and its store's other kinds as the store last had
// them, so a change of a kind another source owns is not written here. And
// the rules w last put in force from its source are never written back. They
// are there already, and the store may have moved on since (a second edit
// the watcher has not read yet), which a write-back would undo. Once w has
// stopped, every change is written.
func (w *Watcher) Persist(opts ...PersistOption) (stop func(), err error) {
	dest, ok := w.src.(WritableSource)
	if !ok {
		return nil, fmt.Errorf("rules source %s cannot be written to (%T has no Write method)", w.name, w.src)
	}
	return persist(dest, w, opts), nil
}

// Writer returns the WritableSource of the store w reads, restricted as
// Watcher.Persist restricts it: a write of a set stores what Persist would
// (with WithKinds, only w's kinds, the store's other kinds kept as the
// store had them) and skips what w last read from the store. Give it to
// transport.Config.Writer so that a dashboard push of a kind w does not own
// is not written into w's store. The store must be a WritableSource.
func (w *Watcher) Writer() (WritableSource, error) {
	dest, ok := w.src.(WritableSource)
	if !ok {
		return nil, fmt.Errorf("rules source %s cannot be written to (%T has no Write method)", w.name, w.src)
	}
	return ownedWriter{w: w, dest: dest}, nil
}

// ownedWriter is what Watcher.Writer returns.
type ownedWriter struct {
	w    *Watcher
	dest WritableSource
}

// Write stores the part of s that belongs in w's store.
func (o ownedWriter) Write(ctx context.Context, s rules.Set) error {
	set := o.w.writeBack(s)
	if o.w.cameFromSource(set) {
		return nil
	}
	return o.dest.Write(ctx, set)
}

// String names the store, as the watcher does.
func (o ownedWriter) String() string { return o.w.name }

// persist starts a persister writing to dest; watched, when not nil, is the
// watcher of dest whose rules are not written back.
func persist(dest WritableSource, watched *Watcher, opts []PersistOption) (stop func()) {
	p := &persister{
		dest:    dest,
		name:    sourceName(dest),
		watched: watched,
		cfg:     newPersistConfig(opts),
		changed: make(chan struct{}, 1),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	// One listener per kind: a change of any kind is a change of the set.
	unregister := []func(){
		runtime.OnFlowRulesChange(skipFirst(func([]runtime.FlowRule) { p.signal() })),
		runtime.OnDegradeRulesChange(skipFirst(func([]runtime.DegradeRule) { p.signal() })),
		runtime.OnParamFlowRulesChange(skipFirst(func([]runtime.ParamFlowRule) { p.signal() })),
		runtime.OnSystemRulesChange(skipFirst(func([]runtime.SystemRule) { p.signal() })),
		runtime.OnAuthorityRulesChange(skipFirst(func([]runtime.AuthorityRule) { p.signal() })),
	}
	go p.run()
	return sync.OnceFunc(func() {
		for _, u := range unregister {
			u()
		}
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
	watched *Watcher // reads dest; nil for Persist
	cfg     persistConfig
	changed chan struct{} // holds one token while a change is unwritten
	quit    chan struct{}
	done    chan struct{}

	last    rules.Set
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
	set := rules.Current()
	if p.watched != nil {
		set = p.watched.writeBack(set)
	}
	if p.hasLast && p.last.Equal(set) {
		return
	}
	if p.watched != nil && p.watched.cameFromSource(set) {
		p.last, p.hasLast = set, true
		return
	}
	if err := p.dest.Write(context.Background(), set); err != nil {
		p.cfg.logger.Error("persisting rules failed; they stay in force but will not survive a restart",
			"source", p.name, "error", err.Error())
		return
	}
	p.last, p.hasLast = set, true
	p.cfg.logger.Info("rules persisted", append([]any{"source", p.name}, ruleCounts(set)...)...)
}
