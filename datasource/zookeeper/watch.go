package zookeeper

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Watch implements datasource.Source. It waits for a session (up to
// Config.Timeout), reads every node with a watch on it, pushes the
// documents present, then reads them all again and pushes the full set
// after every change a watch announces, until ctx ends; it then returns nil.
// ZooKeeper's watches fire once: each read arms the node's watch again.
//
// A missing node, or an empty one (Sentinel's Java data source creates its
// node empty), is no document of its kind. When every node the last push
// had is gone, the source reports datasource.ErrGone instead of pushing an
// empty set. A lost connection and a read that fails are reported with
// datasource.ReportError, naming the node; reads are retried every
// Config.RetryInterval, and every node is read again as soon as a session is
// back (the same one after a reconnection, or a new one after it expired),
// so changes made meanwhile are applied. Before the first push a failure
// makes datasource.Watch return it at once: a service never hangs on a
// ZooKeeper that is down.
func (s *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	if !s.watching.CompareAndSwap(false, true) {
		return fmt.Errorf("%v: already watching; a Source runs one Watch at a time", s)
	}
	defer s.watching.Store(false)
	c, err := s.client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the goroutines waiting on watches
	l := &watchLoop{src: s, conn: c, push: push, seen: map[string]node{},
		armed: map[string]bool{}, fired: make(chan string, len(s.kinds))}
	return l.run(ctx)
}

// watchLoop is the state of one Watch call; run is the only goroutine that
// calls push.
type watchLoop struct {
	src  *Source
	conn *zk.Conn
	push func([]rules.Document)
	// seen is each node as last read.
	seen map[string]node
	// armed says a watch is set on a node and a goroutine waits on it;
	// fired receives the node's path when the watch fires.
	armed map[string]bool
	fired chan string
	// read says every node has been read once.
	read bool
	// failing says a failure was reported and nothing pushed since.
	failing bool
	// had says the last push held at least one document.
	had bool
}

func (l *watchLoop) run(ctx context.Context) error {
	s := l.src
	if err := s.session(ctx, l.conn); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		l.fail(ctx, err)
	} else {
		l.readAll(ctx)
	}
	l.drainSessions()
	retry := time.NewTicker(s.cfg.RetryInterval)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case p := <-l.fired:
			l.armed[p] = false
			l.readAll(ctx)
		case st := <-s.sessions:
			switch {
			case st == zk.StateHasSession:
				l.readAll(ctx)
			case (st == zk.StateDisconnected || st == zk.StateExpired) && l.conn.State() != zk.StateHasSession:
				l.fail(ctx, fmt.Errorf("%v: connection to ZooKeeper %v lost (%v)", s, s.cfg.Servers, st))
			}
		case <-retry.C:
			if (!l.read || l.failing) && l.conn.State() == zk.StateHasSession {
				l.readAll(ctx)
			}
		}
	}
}

// drainSessions drops the session states queued before the first read,
// which that read has taken into account.
func (l *watchLoop) drainSessions() {
	for {
		select {
		case <-l.src.sessions:
		default:
			return
		}
	}
}

// readAll reads every node; on success it pushes them when they differ from
// the ones seen (always the first time and after a failure), else it
// reports the failure.
func (l *watchLoop) readAll(ctx context.Context) {
	s := l.src
	next := make(map[string]node, len(s.kinds))
	for _, k := range s.kinds {
		n, err := l.readNode(ctx, k.path)
		if err != nil {
			if ctx.Err() == nil {
				l.fail(ctx, err)
			}
			return
		}
		next[k.path] = n
	}
	if !l.read || l.failing || !maps.Equal(next, l.seen) {
		l.seen, l.read = next, true
		l.pushSeen(ctx)
	}
}

// readNode reads path, arming a watch on it unless one is armed: a data
// watch on a node that exists, an existence watch on one that does not.
func (l *watchLoop) readNode(ctx context.Context, path string) (node, error) {
	s := l.src
	if !l.armed[path] {
		data, stat, ch, err := l.conn.GetW(path)
		if err == nil {
			l.arm(ctx, path, ch)
			return node{data: string(data), version: stat.Version, exists: true}, nil
		}
		if !errors.Is(err, zk.ErrNoNode) {
			return node{}, fmt.Errorf("%v: reading node %s: %w", s, path, err)
		}
		ok, _, ch, err := l.conn.ExistsW(path)
		if err != nil {
			return node{}, fmt.Errorf("%v: watching node %s: %w", s, path, err)
		}
		l.arm(ctx, path, ch)
		if !ok {
			return node{version: -1}, nil
		}
		// Created between the two calls: the watch set is a data watch.
	}
	return s.get(l.conn, path)
}

// arm starts the goroutine that waits for the watch ch of path to fire.
func (l *watchLoop) arm(ctx context.Context, path string, ch <-chan zk.Event) {
	l.armed[path] = true
	go func() {
		select {
		case <-ch:
			select {
			case l.fired <- path:
			case <-ctx.Done():
			}
		case <-ctx.Done():
		}
	}()
}

// pushSeen pushes the documents present, or reports them gone when none is
// left where the last push had some; then makes them Write's base.
func (l *watchLoop) pushSeen(ctx context.Context) {
	s := l.src
	if l.failing {
		l.failing = false
		s.cfg.Logger.Info("zookeeper answering again", "source", s.String())
	}
	var docs []rules.Document
	for _, k := range s.kinds {
		n := l.seen[k.path]
		s.setBase(k.path, n)
		if strings.TrimSpace(n.data) != "" {
			docs = append(docs, document(k, n.data))
		}
	}
	if len(docs) == 0 && l.had {
		s.cfg.Logger.Warn("zookeeper rules documents gone", "source", s.String())
		datasource.ReportError(ctx, fmt.Errorf("%v: every node (%s) is gone: %w", s, l.paths(), datasource.ErrGone))
		return
	}
	l.had = len(docs) > 0
	l.push(docs)
}

// paths lists the source's nodes for messages.
func (l *watchLoop) paths() string {
	var ps []string
	for _, k := range l.src.kinds {
		ps = append(ps, k.path)
	}
	return strings.Join(ps, ", ")
}

// fail logs and reports a failure once per outage; the rules in force stay.
func (l *watchLoop) fail(ctx context.Context, err error) {
	s := l.src
	if l.failing {
		s.cfg.Logger.Debug("zookeeper still failing", "source", s.String(), "error", err.Error())
		return
	}
	l.failing = true
	s.cfg.Logger.Warn("zookeeper failing", "source", s.String(), "error", err.Error())
	datasource.ReportError(ctx, fmt.Errorf("%w; the rules in force stay until ZooKeeper answers", err))
}
