package etcd

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Probing the server.
//
// A watch alone cannot tell two faults. A server that hangs (stopped, stuck
// on its disk) keeps the connection and the watch open and silent, so the
// watch just goes quiet. A server that comes back with another history (a
// restore from backup, a member restarted with an empty data directory)
// takes the resumed watch, which waits for a revision the new history may
// reach much later or never, and skips what happens before. So while it
// watches, the source reads the key or prefix every probe interval, and
// whenever the connection comes back, with the probe timeout as deadline:
//
//   - no answer within the timeout is reported as an outage (the rules in
//     force stay) until a probe answers;
//   - a changed cluster ID, a revision lower than the one the watch has
//     reached, or a key whose value at a revision the watch has covered is
//     not the one seen, means the history was replaced: the source takes the
//     read as the truth, pushes it and watches again from its revision.
//
// A compacted revision is the third fault; the watch reports it itself (see
// watchLoop.run).

// errResynced ends a watch whose documents were read afresh: the loop
// watches again from the read's revision.
var errResynced = errors.New("rules read afresh")

// probe reads the source's keys with the probe timeout and acts on the
// answer as above. It returns errResynced when the watch must start again.
func (l *watchLoop) probe(ctx context.Context) error {
	s := l.src
	pctx, cancel := context.WithTimeout(ctx, s.cfg.probeTimeout)
	resp, err := s.client.Get(pctx, s.key, s.keyOptions()...)
	cancel()
	if err != nil {
		if ctx.Err() == nil {
			l.fail(ctx, fmt.Errorf("no answer to a read within %v (server hung or unreachable): %w", s.cfg.probeTimeout, err))
		}
		return nil
	}
	if why := l.diverged(resp); why != "" {
		return l.adopt(ctx, resp, why)
	}
	if l.failing {
		l.pushSeen(ctx) // unchanged: tells the watcher all is well again
	}
	return nil
}

// diverged says why resp, a read made after the watch's position, cannot
// follow from the documents seen, or "" when it can.
func (l *watchLoop) diverged(resp *clientv3.GetResponse) string {
	covered := l.next - 1 // every change up to here is in seen
	switch h := resp.Header; {
	case h.ClusterId != l.cluster:
		return fmt.Sprintf("etcd cluster ID changed from %x to %x", l.cluster, h.ClusterId)
	case h.Revision < covered:
		return fmt.Sprintf("etcd revision went back from %d to %d", covered, h.Revision)
	}
	for _, kv := range resp.Kvs {
		if kv.ModRevision > covered {
			continue // a change the watch has yet to deliver
		}
		// Unchanged since a revision the watch covered: seen must hold it.
		if e, ok := l.seen[string(kv.Key)]; !ok || e.modRev != kv.ModRevision || string(e.data) != string(kv.Value) {
			return fmt.Sprintf("key %s at revision %d is not the one seen", kv.Key, kv.ModRevision)
		}
	}
	return ""
}

// resync reads everything again after the watch found the history replaced
// (why), and returns errResynced so the watch starts again from the read.
func (l *watchLoop) resync(ctx context.Context, why string) error {
	s := l.src
	s.cfg.logger.Warn("etcd history replaced; reading the rules again", "source", s.String(), "reason", why)
	s.resyncs.Add(1)
	l.read = false // push whatever the read finds
	l.forgetWrites()
	if err := l.readAll(ctx); err != nil {
		return err
	}
	return errResynced
}

// adopt takes resp, a probe's read, as the documents in force after the
// history was replaced (why), pushes it, and returns errResynced.
func (l *watchLoop) adopt(ctx context.Context, resp *clientv3.GetResponse, why string) error {
	s := l.src
	s.cfg.logger.Warn("etcd history replaced; taking the rules read now", "source", s.String(), "reason", why,
		"revision", resp.Header.Revision)
	s.resyncs.Add(1)
	l.forgetWrites()
	l.seen, l.read = snapshotOf(resp.Kvs), true
	l.next, l.cluster = resp.Header.Revision+1, resp.Header.ClusterId
	l.pushSeen(ctx)
	return errResynced
}

// forgetWrites drops what Write committed in the replaced history: its
// revisions mean nothing in the new one.
func (l *watchLoop) forgetWrites() {
	s := l.src
	s.mu.Lock()
	clear(s.written)
	s.mu.Unlock()
}
