package etcd

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// errClientClosed ends a Watch: the caller closed the client under it.
var errClientClosed = errors.New("etcd client closed")

// errUnreachable is reported while no etcd endpoint answers.
var errUnreachable = errors.New("no etcd endpoint answers")

// errWatchClosed is why a watch ended when etcd closed it without saying why.
var errWatchClosed = errors.New("watch closed by etcd")

// Watch implements datasource.Source. It reads the key (or prefix) and pushes its
// documents, then watches from the next revision and pushes the full set
// again after every change, until ctx ends; it then returns nil.
//
// Failures do not end it. A lost watch (no leader, etcd restarting) is
// re-established with backoff from the last revision seen, so every change
// is pushed once. A compacted revision means changes may have been lost: the
// source reads everything again and pushes it if any key changed. The first
// failure of an outage is reported through datasource.ReportError, so the
// watcher's LastError says why updates stopped; the current documents are
// pushed again once etcd answers, which clears it without reloading
// anything. The source also reads its keys every probe interval, and when
// the connection comes back (see WithProbe and probe.go): no answer within
// the probe timeout is reported as an outage, and a read showing another
// history than the one watched (changed cluster ID, revision gone back,
// different value at a revision already seen) is pushed and watched from.
// Documents that are all deleted are reported gone (see gone.go), not
// pushed as an empty set.
//
// Watch returns an error only when the client has been closed.
func (s *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	if !s.watching.CompareAndSwap(false, true) {
		return fmt.Errorf("%v: already watching; a Source runs one Watch at a time", s)
	}
	defer s.watching.Store(false)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the reachability goroutine
	l := &watchLoop{
		src:       s,
		push:      push,
		bo:        backoff{min: s.cfg.backoffMin, max: s.cfg.backoffMax},
		reachable: reachability(ctx, s.client.ActiveConnection()),
	}
	return l.run(ctx)
}

// watchLoop is the state of one Watch call: it runs on a single goroutine,
// which is also the only one calling push.
type watchLoop struct {
	src  *Source
	push func([]rules.Document)
	bo   backoff
	// reachable tells when etcd is lost and found again (see reachability).
	reachable <-chan bool
	// seen holds the documents as of revision next-1; never changed in
	// place once pushed, so base may share it.
	seen map[string]entry
	// next is the first revision not yet seen: the watch (re)starts there.
	next int64
	// read says seen holds a successful read.
	read bool
	// failing says a failure was reported and nothing has been pushed since.
	failing bool
	// cluster is the ID of the etcd cluster seen is from (see probe.go).
	cluster uint64
	// had says the last documents pushed were not none: their deletion is
	// then a gone document (see gone.go).
	had bool
}

func (l *watchLoop) run(ctx context.Context) error {
	s := l.src
	if err := l.readAll(ctx); err != nil {
		return stopped(ctx, err)
	}
	for {
		err := l.watch(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if s.client.Ctx().Err() != nil {
			return fmt.Errorf("%v: %w", s, errClientClosed)
		}
		if errors.Is(err, errResynced) {
			continue // seen was read afresh: watch from its revision
		}
		if errors.Is(err, rpctypes.ErrCompacted) {
			s.resyncs.Add(1)
			s.cfg.logger.Warn("etcd revision compacted before the watch saw it; reading the rules again",
				"source", s.String(), "revision", l.next)
			if err := l.readAll(ctx); err != nil {
				return stopped(ctx, err)
			}
			continue
		}
		l.fail(ctx, fmt.Errorf("watch lost: %w", err))
		if !sleep(ctx, l.bo.next()) {
			return nil
		}
	}
}

// stopped is what Watch returns after readAll gave up with err: nil when ctx
// ended (the normal way to stop), else the error.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// readAll reads the key or prefix, retrying with backoff until it succeeds,
// ctx ends or the client is closed (then it returns why). It pushes the
// documents when they differ from the ones seen before, on the first read,
// and after a reported failure.
func (l *watchLoop) readAll(ctx context.Context) error {
	s := l.src
	for {
		rctx, cancel := context.WithTimeout(ctx, s.cfg.requestTimeout)
		resp, err := s.client.Get(rctx, s.key, s.keyOptions()...)
		cancel()
		if err == nil {
			l.bo.reset()
			l.next = resp.Header.Revision + 1
			l.cluster = resp.Header.ClusterId
			snapshot := snapshotOf(resp.Kvs)
			changed := !l.read || !sameRevisions(l.seen, snapshot)
			l.seen, l.read = snapshot, true
			if changed || l.failing {
				l.pushSeen(ctx)
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.client.Ctx().Err() != nil {
			return fmt.Errorf("%v: %w", s, errClientClosed)
		}
		l.fail(ctx, fmt.Errorf("read failed: %w", err))
		if !sleep(ctx, l.bo.next()) {
			return ctx.Err()
		}
	}
}

// watch follows changes from l.next until the watch fails or ctx ends.
func (l *watchLoop) watch(ctx context.Context) error {
	s := l.src
	// WithRequireLeader makes a member cut off from the cluster's leader end
	// the watch instead of keeping it silently open with no more events.
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	opts := append(s.keyOptions(),
		clientv3.WithRev(l.next),
		clientv3.WithProgressNotify(),
		clientv3.WithCreatedNotify())
	// Watch returns only once etcd has created the watch, which waits out
	// an outage; opening it aside keeps the loop free to report one.
	opened := make(chan clientv3.WatchChan, 1)
	go func() { opened <- s.client.Watch(wctx, s.key, opts...) }()
	var events clientv3.WatchChan // nil, never ready, until opened
	probe := time.NewTicker(s.cfg.probeInterval)
	defer probe.Stop()
	for {
		var resp clientv3.WatchResponse
		select {
		case events = <-opened:
			continue
		case <-probe.C:
			// A hung server keeps the connection and the watch open and
			// silent: only a request with a deadline finds it out.
			if err := l.probe(ctx); err != nil {
				return err
			}
			continue
		case up := <-l.reachable:
			switch {
			case !up:
				l.fail(ctx, errUnreachable)
			case l.failing:
				// The client resumes the watch by itself, but the server
				// may have come back with another history: the probe
				// checks, then tells the watcher all is well again.
				if err := l.probe(ctx); err != nil {
					return err
				}
			}
			continue
		case r, ok := <-events:
			if !ok {
				if err := ctx.Err(); err != nil {
					return err
				}
				return errWatchClosed
			}
			resp = r
		}
		if err := resp.Err(); err != nil {
			return err
		}
		if id := resp.Header.ClusterId; id != 0 && id != l.cluster {
			return l.resync(ctx, fmt.Sprintf("etcd cluster ID changed from %x to %x", l.cluster, id))
		}
		switch {
		case resp.Created:
			l.bo.reset()
			if l.failing {
				l.pushSeen(ctx)
			}
		case resp.IsProgressNotify():
			// Every change up to the header's revision has been delivered,
			// so a resumed watch may start after it.
			l.next = max(l.next, resp.Header.Revision+1)
		default:
			if l.apply(resp.Events) || l.failing {
				l.pushSeen(ctx)
			}
		}
	}
}

// apply records events in the seen documents and reports whether any of them
// changed a document. An event at or below a key's known mod revision is one
// already applied (a resumed watch may deliver it again) and is skipped.
func (l *watchLoop) apply(events []*clientv3.Event) bool {
	changed := false
	var next map[string]entry // copied on the first change: base may share seen
	for _, ev := range events {
		key, rev := string(ev.Kv.Key), ev.Kv.ModRevision
		l.next = max(l.next, rev+1)
		old, had := l.seen[key]
		if had && old.modRev >= rev {
			continue
		}
		if next == nil {
			next = maps.Clone(l.seen)
		}
		switch ev.Type {
		case mvccpb.PUT:
			next[key] = entry{data: ev.Kv.Value, modRev: rev}
			changed = true
		case mvccpb.DELETE:
			if had {
				delete(next, key)
				changed = true
			}
		}
	}
	if next != nil {
		l.seen = next
	}
	return changed
}

// pushSeen pushes the seen documents (or reports them gone: see gone.go),
// then makes them Write's base, and clears the failing state.
func (l *watchLoop) pushSeen(ctx context.Context) {
	s := l.src
	if l.failing {
		l.failing = false
		s.cfg.logger.Info("etcd reachable again", "source", s.String(), "revision", l.next-1)
	}
	l.pushOrGone(ctx)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.base, s.baseRev, s.hasBase = l.seen, l.next-1, true
	for key, w := range s.written {
		if w.modRev <= s.baseRev {
			delete(s.written, key) // base includes that write, or a later change
		}
	}
}

// fail logs and reports a failure, once per outage: retries that fail again
// change nothing the watcher needs to know, and would only repeat its log.
// The rules in force stay as they are.
func (l *watchLoop) fail(ctx context.Context, err error) {
	s := l.src
	if l.failing {
		s.cfg.logger.Debug("etcd still unavailable", "source", s.String(), "error", err.Error())
		return
	}
	l.failing = true
	err = fmt.Errorf("%v: %w; the rules in force stay until etcd answers", s, err)
	s.cfg.logger.Warn("etcd unavailable", "source", s.String(), "error", err.Error())
	datasource.ReportError(ctx, err)
}
