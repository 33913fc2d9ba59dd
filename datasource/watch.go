package datasource

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
)

// Watcher feeds one Source into the runtime; Watch (or file.Watch) starts it.
// It keeps the last good rules in force whatever the source sends, and says
// through LastError, Rejected and its log why an update did not take.
type Watcher struct {
	src   Source
	name  string
	cfg   watchConfig
	prop  *Property
	done  chan struct{}
	first chan error // receives the outcome of the first update, once

	// mu serialises pushes and reports: a source may misbehave and call push
	// from several goroutines.
	mu       sync.Mutex
	stopped  bool // the source's Watch returned; later pushes are ignored
	answered bool // first has been sent to

	// fromSource is the set this watcher last read from its source and put
	// in force (its owned kinds) or found in force, nil once it stopped.
	// Watcher.Persist reads it to skip writing that set back to the store
	// it came from. It is set before the set is applied, so a persister
	// woken by the apply already sees it.
	fromSource atomic.Pointer[rules.Set]

	// own is what w owns: its kinds and their rules as its source last gave
	// them. Like fromSource it is set before the rules change.
	own atomic.Pointer[ownership]

	lastErr  atomic.Pointer[error]
	rejected atomic.Uint64
	applied  atomic.Uint64
	err      error // the source's own error, set before done closes
}

// Watch feeds src into the runtime. Every push is parsed and validated; a
// good one is put in force and becomes the Property's value. By default it
// is put in force with one rules.Update, serialized with every other change
// made through package rules (other sources, dashboard pushes): the rules of
// the kinds the watcher owns (Kinds, WithKinds) that the push changed are
// replaced, every other kind stays as it is, and each resource switches
// atomically, so no call ever sees a moment without rules. A bad one is
// rejected: the last good rules stay, an Error record is logged with the
// positions, LastError returns it and Rejected counts it. A later good push
// applies as usual.
//
// Watch waits for the first update and fails fast: if it is rejected, if the
// source reports an error (ReportError) or stops first, if ctx ends, or if
// WithInitialTimeout passes, Watch stops the source and returns the error and
// no Watcher, so a service with broken rules does not start. A push equal to
// the rules already in force is accepted without reloading them.
//
// Ending ctx stops the source; Done closes once it has returned.
func Watch(ctx context.Context, src Source, opts ...WatchOption) (*Watcher, error) {
	cfg := newWatchConfig(opts)
	for _, k := range cfg.kinds {
		if !slices.Contains(rules.AllKinds(), k) {
			return nil, fmt.Errorf("rules source %s: WithKinds: unknown rule kind %q (want one of %v)", sourceName(src), k, rules.AllKinds())
		}
	}
	w := &Watcher{
		src:   src,
		name:  sourceName(src),
		cfg:   cfg,
		prop:  NewProperty(),
		done:  make(chan struct{}),
		first: make(chan error, 1),
	}
	runCtx, cancel := context.WithCancel(ctx)
	go w.run(runCtx, cancel)

	var timeout <-chan time.Time
	if cfg.initialTimeout > 0 {
		t := time.NewTimer(cfg.initialTimeout)
		defer t.Stop()
		timeout = t.C
	}
	var err error
	select {
	case err = <-w.first:
	case <-w.done:
		select {
		case err = <-w.first: // the source pushed, then stopped
		default:
			err = w.err
			if err == nil {
				err = fmt.Errorf("rules source %s stopped before sending any rules", w.name)
			}
		}
	case <-ctx.Done():
		err = fmt.Errorf("rules source %s: no rules before the context ended: %w", w.name, context.Cause(ctx))
	case <-timeout:
		err = fmt.Errorf("rules source %s: no rules within %v", w.name, cfg.initialTimeout)
	}
	if err != nil {
		cancel()
		<-w.done
		return nil, err
	}
	return w, nil
}

// LastError returns why the last update was rejected or what the source last
// reported; nil after a good update.
func (w *Watcher) LastError() error {
	if p := w.lastErr.Load(); p != nil {
		return *p
	}
	return nil
}

// Rejected counts updates that were not put in force: documents that failed
// to parse or validate, rule sets the applier refused, and problems the
// source reported.
func (w *Watcher) Rejected() uint64 { return w.rejected.Load() }

// Applied counts updates put in force, the first one included (even when the
// runtime already held those rules). A later push equal to the rules in force
// (the source re-sending, or a Persist write read back) is adopted as the
// Property's value but not counted.
func (w *Watcher) Applied() uint64 { return w.applied.Load() }

// Property returns the property holding the last good Set from the source.
func (w *Watcher) Property() *Property { return w.prop }

// Done is closed when the watcher has stopped: its context ended or the
// source failed for good (see Err).
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Err returns the error the source stopped with, once Done is closed; nil
// while running and when the context ended it.
func (w *Watcher) Err() error {
	select {
	case <-w.done:
		return w.err
	default:
		return nil
	}
}

// run drives the source until it returns.
func (w *Watcher) run(ctx context.Context, cancel context.CancelFunc) {
	defer close(w.done)
	defer cancel()
	err := w.src.Watch(withReporter(ctx, w.report), w.push)
	if ctx.Err() != nil {
		err = nil // stopped on request; whatever it returned is about that
	}
	w.mu.Lock()
	w.stopped = true
	// Watch returns an error that comes before the first outcome.
	if err != nil && w.answered {
		w.cfg.logger.Error("rules source stopped; the last good rules stay in force", "source", w.name, "error", err.Error())
	}
	w.fromSource.Store(nil) // the store may move on unseen: nothing is known to be there
	w.mu.Unlock()
	w.err = err
}

// push handles one update from the source.
func (w *Watcher) push(docs []rules.Document) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	set, err := rules.ParseDocuments(docs)
	if err != nil {
		w.rejectLocked(err)
		return
	}
	for _, warn := range set.Warnings {
		w.cfg.logger.Warn("rules document warning", "source", w.name, "warning", warn.Error())
	}
	if w.cfg.customApply {
		w.pushCustomLocked(set)
		return
	}
	// Parameter names (param = "sku") become indexes here, as the runtime
	// holds them, so that the set compares equal to the rules in force:
	// else Persist would write the file back with indexes, and every
	// re-read would reload.
	if set, err = rules.Resolve(set); err != nil {
		w.rejectLocked(err)
		return
	}
	kinds := w.kindsFor(set)
	mine := &ownership{kinds: kinds, set: rules.Set{}.Replace(set, kinds...)}
	changed := w.changedKinds(mine)
	// The read of the rules in force, the replacement of this source's
	// changed kinds and the load are one rules.Update, serialized with
	// every other source and every dashboard push.
	var previous *rules.Set
	var previousOwn *ownership
	unchanged := false
	_, err = rules.Update(func(cur rules.Set) (rules.Set, error) {
		next := cur.Replace(set, changed...)
		// Set before the load, so a persister woken by it already sees
		// them.
		previous = w.fromSource.Swap(&set)
		previousOwn = w.own.Swap(mine)
		if next.Equal(cur) {
			// Already in force (Persist wrote it, or the source re-sent
			// it): adopt it without reloading, which would only notify
			// listeners.
			unchanged = true
			return cur, rules.ErrUnchanged
		}
		return next, nil
	})
	if err != nil {
		w.fromSource.Store(previous)
		w.own.Store(previousOwn)
		w.rejectLocked(err)
		return
	}
	w.prop.Update(set)
	w.acceptLocked(set, !unchanged || !w.answered)
}

// ownership is what a Watcher owns: its kinds, and the rules of those kinds
// as its source last gave them.
type ownership struct {
	kinds []rules.Kind
	set   rules.Set
}

// changedKinds returns the kinds of next whose rules differ from the
// source's previous update: all of them at the first update. An update
// replaces only these, so that a source re-sending a kind unchanged (a
// document edited elsewhere) does not undo a push of that kind.
func (w *Watcher) changedKinds(next *ownership) []rules.Kind {
	prev := w.own.Load()
	if prev == nil {
		return next.kinds
	}
	var out []rules.Kind
	for _, k := range next.kinds {
		if !slices.Contains(prev.kinds, k) || !next.set.Only(k).Equal(prev.set.Only(k)) {
			out = append(out, k)
		}
	}
	return out
}

// pushCustomLocked hands set whole to the WithApplier function.
func (w *Watcher) pushCustomLocked(set rules.Set) {
	if w.inForce(set) {
		w.fromSource.Store(&set)
		w.prop.Update(set)
		w.acceptLocked(set, !w.answered)
		return
	}
	previous := w.fromSource.Swap(&set)
	if err := w.cfg.apply(set); err != nil {
		w.fromSource.Store(previous)
		w.rejectLocked(err)
		return
	}
	w.prop.Update(set)
	w.acceptLocked(set, true)
}

// kindsFor returns the kinds an update holding set replaces: those given
// by WithKinds, else every kind owned so far plus every kind set holds.
func (w *Watcher) kindsFor(set rules.Set) []rules.Kind {
	if w.cfg.kinds != nil {
		return w.cfg.kinds
	}
	var owned []rules.Kind
	if p := w.own.Load(); p != nil {
		owned = p.kinds
	}
	var out []rules.Kind
	for _, k := range rules.AllKinds() {
		if slices.Contains(owned, k) || slices.Contains(set.Held(), k) {
			out = append(out, k)
		}
	}
	return out
}

// Kinds returns the rule kinds w owns: an update from its source replaces
// the rules of these kinds in force and no others, and of these only the
// kinds whose rules the update changed (all of them at the first update),
// so that re-sending a kind unchanged never undoes a push of it. They are
// the kinds given by WithKinds; without it, every kind the source has held
// a rule of since Watch started (a kind once held stays owned, so that
// removing its last rule from the source removes it from force). With
// WithApplier it returns nil: the applier decides.
func (w *Watcher) Kinds() []rules.Kind {
	if w.cfg.customApply {
		return nil
	}
	if w.cfg.kinds != nil {
		return slices.Clone(w.cfg.kinds)
	}
	if p := w.own.Load(); p != nil {
		return slices.Clone(p.kinds)
	}
	return nil
}

// Owned returns the rules of the kinds w owns (Kinds) as its source last
// gave them; the zero Set before the first update. It changes before the
// rules in force do, so a rule listener woken by a change from w already
// sees it. With WithApplier it is the Property's value.
func (w *Watcher) Owned() rules.Set {
	if w.cfg.customApply {
		return w.prop.Get()
	}
	if p := w.own.Load(); p != nil {
		return p.set
	}
	return rules.Set{}
}

// inForce reports whether set is the property's value, what the custom
// applier was last given.
func (w *Watcher) inForce(set rules.Set) bool {
	p := w.prop
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.set && p.value.Equal(set)
}

// writeBack returns what Watcher.Persist writes to w's store when cur is
// in force: every kind of cur, or, with WithKinds, the store's last set
// with only the owned kinds taken from cur.
func (w *Watcher) writeBack(cur rules.Set) rules.Set {
	if w.cfg.kinds == nil || w.cfg.customApply {
		return cur
	}
	base := w.prop.Get()
	if p := w.fromSource.Load(); p != nil {
		base = *p
	}
	return base.Replace(cur, w.cfg.kinds...)
}

// cameFromSource reports whether set is what this watcher, still running,
// last put in force from its source.
func (w *Watcher) cameFromSource(set rules.Set) bool {
	p := w.fromSource.Load()
	return p != nil && p.Equal(set)
}

// report is the ReportError callback handed to the source.
func (w *Watcher) report(err error) {
	if w.applyGone(err) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped {
		w.rejectLocked(err)
	}
}

// acceptLocked records a good update; counted says whether it changed the
// rules (Applied) or only confirmed them.
func (w *Watcher) acceptLocked(set rules.Set, counted bool) {
	hadError := w.lastErr.Swap(nil) != nil
	if counted {
		w.applied.Add(1)
		w.cfg.logger.Info("rules applied", append(append([]any{"source", w.name}, ruleCounts(set)...), "applied", w.applied.Load())...)
	} else if hadError {
		w.cfg.logger.Info("rules source good again; rules in force unchanged", append([]any{"source", w.name}, ruleCounts(set)...)...)
	}
	w.answerLocked(nil)
}

// rejectLocked records a rejected update; the rules in force do not change.
// The first outcome is not logged: Watch returns it, and its caller reports
// it (logging it here too would print it twice).
func (w *Watcher) rejectLocked(err error) {
	// Logged before it is counted, so that whoever sees the count (a test
	// waiting on Rejected) also sees the record. Every rejection holds w.mu,
	// so the number logged is the one counted.
	if w.answered {
		w.cfg.logger.Error("rules update rejected; the last good rules stay in force",
			"source", w.name, "error", err.Error(), "rejected", w.rejected.Load()+1)
	}
	w.lastErr.Store(&err)
	w.rejected.Add(1)
	w.answerLocked(err)
}

// answerLocked hands the first outcome to the waiting Watch call.
func (w *Watcher) answerLocked(err error) {
	if !w.answered {
		w.answered = true
		w.first <- err
	}
}

// ruleCounts are log attributes with the number of rules of each kind set
// holds ("flow", 3, "degrade", 1, ...); kinds without rules are left out,
// except flow and degrade, which are always there.
func ruleCounts(set rules.Set) []any {
	n := map[rules.Kind]int{rules.KindFlow: len(set.Flow), rules.KindDegrade: len(set.Degrade),
		rules.KindParamFlow: len(set.ParamFlow), rules.KindSystem: len(set.System), rules.KindAuthority: len(set.Authority)}
	var out []any
	for _, k := range rules.Kinds() {
		if n[k] > 0 || k == rules.KindFlow || k == rules.KindDegrade {
			out = append(out, string(k), n[k])
		}
	}
	return out
}
