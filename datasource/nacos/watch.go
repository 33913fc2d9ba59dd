package nacos

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/nacos-group/nacos-sdk-go/v2/vo"
	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Watch implements datasource.Source. It reads every dataId, each read
// bounded by Config.Timeout, pushes the documents present, subscribes to
// them all (ListenConfig), then pushes the full set again after every
// change Nacos announces, until ctx ends; it then returns nil.
//
// A missing dataId is no document of its kind. When every dataId the last
// push had is gone, the source reports datasource.ErrGone instead of
// pushing an empty set. A read that fails is reported with
// datasource.ReportError naming the dataId and retried every
// Config.RetryInterval; before the first push that makes datasource.Watch
// return the error at once, so a service never hangs on a Nacos that is
// down (unless Config.StartFromSnapshot lets the SDK's local snapshot
// answer; the outage is then reported after the push).
//
// With Config.Username set, Watch first signs in to every server and
// returns an error naming the user and the server when one that enforces
// auth refuses.
//
// While it watches, a probe reads one dataId every Config.ProbeInterval:
// a Nacos that does not answer within Config.Timeout is reported, the rules
// in force stay, and every dataId is read again once it answers, which also
// applies the changes made meanwhile that the subscription missed. The
// probe, and the check that Nacos answers again, use Nacos's HTTP API.
func (s *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	if !s.watching.CompareAndSwap(false, true) {
		return fmt.Errorf("%v: already watching; a Source runs one Watch at a time", s)
	}
	defer s.watching.Store(false)

	if s.cfg.Username != "" {
		// A wrong password is said at once, not as reads refused later.
		if err := s.api.signInAll(ctx, s.kinds[0].dataID); err != nil {
			return fmt.Errorf("%v: %w", s, err)
		}
	}
	l := &watchLoop{src: s, push: push, seen: map[string]string{}, changed: make(chan struct{}, 1), pending: map[string]string{}}
	defer l.unlisten()
	if s.reachable(ctx) {
		// Subscribing before the first read lets the SDK's first poll,
		// made as soon as it connects, carry the subscriptions; else they
		// wait for its next poll, seconds later.
		if err := l.listen(); err != nil {
			return err
		}
	}
	return l.run(ctx)
}

// watchLoop is the state of one Watch call; run is the only goroutine that
// calls push.
type watchLoop struct {
	src  *Source
	push func([]rules.Document)
	// seen is each dataId's content as last read ("" when missing).
	seen map[string]string
	// read says every dataId has been read once.
	read bool
	// failing says a failure was reported and nothing pushed since.
	failing bool
	// had says the last push held at least one document.
	had bool
	// listening says the SDK calls onChange for every dataId.
	listening bool

	// mu guards pending, filled by the SDK's callbacks; changed wakes run.
	mu      sync.Mutex
	pending map[string]string
	changed chan struct{}
}

// listen subscribes to every dataId. When no server accepted a connection
// it waits for the first full read: the SDK's listening loop and a read
// both failing on an unreachable server race inside the SDK. A change made
// between the read and the subscription is still announced, the SDK
// comparing the server's MD5 with that of the content read.
func (l *watchLoop) listen() error {
	s := l.src
	for _, k := range s.kinds {
		err := s.client.ListenConfig(vo.ConfigParam{DataId: k.dataID, Group: s.cfg.Group, OnChange: l.onChange})
		if err != nil {
			return fmt.Errorf("%v: listening to dataId %s: %w", s, k.dataID, err)
		}
	}
	l.listening = true
	return nil
}

// reachable reports whether a server's gRPC port accepts a connection
// within Config.Timeout.
func (s *Source) reachable(ctx context.Context) bool {
	d := net.Dialer{Timeout: s.cfg.Timeout}
	for _, addr := range s.grpcAddrs {
		if c, err := d.DialContext(ctx, "tcp", addr); err == nil {
			c.Close()
			return true
		}
	}
	return false
}

// unlisten ends the subscriptions listen made.
func (l *watchLoop) unlisten() {
	if !l.listening {
		return
	}
	s := l.src
	for _, k := range s.kinds {
		_ = s.client.CancelListenConfig(vo.ConfigParam{DataId: k.dataID, Group: s.cfg.Group})
	}
}

// onChange is the SDK's ListenConfig callback: it records the new content
// and wakes the loop.
func (l *watchLoop) onChange(_, _, dataID, data string) {
	l.mu.Lock()
	l.pending[dataID] = data
	l.mu.Unlock()
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

func (l *watchLoop) run(ctx context.Context) error {
	s := l.src
	retry := time.NewTicker(s.cfg.RetryInterval)
	defer retry.Stop()
	var probe <-chan time.Time
	if s.cfg.ProbeInterval > 0 {
		t := time.NewTicker(s.cfg.ProbeInterval)
		defer t.Stop()
		probe = t.C
	}
	l.readAll(ctx)
	for {
		if l.read && !l.listening {
			if err := l.listen(); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-retry.C:
			switch {
			case !l.read:
				l.readAll(ctx)
			case l.failing:
				l.recover(ctx)
			}
		case <-probe:
			if l.read && !l.failing {
				l.probe(ctx)
			}
		case <-l.changed:
			l.mu.Lock()
			news := l.pending
			l.pending = map[string]string{}
			l.mu.Unlock()
			if !l.read || l.failing {
				// The next full read takes them in; after an outage it
				// also finds the changes the SDK did not announce.
				if l.failing {
					l.recover(ctx)
				}
				continue
			}
			next := maps.Clone(l.seen)
			for id, c := range news {
				next[id] = c
			}
			if !maps.Equal(next, l.seen) {
				l.seen = next
				l.pushSeen(ctx)
			}
		}
	}
}

// probe reads the first dataId through the HTTP API, bounded by
// Config.Timeout, and reports an outage when Nacos does not answer: a
// stopped or hung server leaves the SDK's subscription silent. What it
// reads is not pushed: a read straight after a publish may still return the
// content before it. Once an outage is reported, the retry loop reads every
// dataId until Nacos answers (recover).
func (l *watchLoop) probe(ctx context.Context) {
	s := l.src
	id := s.kinds[0].dataID
	if _, err := s.api.read(ctx, id); err != nil && ctx.Err() == nil {
		l.fail(ctx, fmt.Errorf("%v: Nacos did not answer a read of dataId %s within %v: %w", s, id, s.cfg.Timeout, err))
	}
}

// recover reads every dataId again, through the SDK, once the HTTP API
// answers after an outage. Asking the SDK no earlier spares it requests
// while it cannot connect; asking it then makes it reconnect at once
// rather than at its next health check, and a read that succeeds says its
// subscriptions work again.
func (l *watchLoop) recover(ctx context.Context) {
	s := l.src
	id := s.kinds[0].dataID
	if _, err := s.api.read(ctx, id); err != nil {
		s.cfg.Logger.Debug("nacos still not answering", "source", s.String(), "error", err.Error())
		return
	}
	l.readAll(ctx)
}

// readAll reads every dataId; on success it pushes them when they differ
// from the ones seen (always the first time), else it reports the failure.
// With Config.StartFromSnapshot, dataIds the SDK's snapshot answered for
// are pushed when they differ, and Nacos's failure is reported.
func (l *watchLoop) readAll(ctx context.Context) {
	s := l.src
	next := make(map[string]string, len(s.kinds))
	var errs []error
	var unreachable error // Nacos's error when a snapshot answered
	snapshots := 0        // dataIds without a snapshot while Nacos is unreachable
	for _, k := range s.kinds {
		c, down, err := s.readOrSnapshot(k.dataID)
		if errors.Is(err, errNoSnapshot) {
			snapshots++
			down, err = err, nil // missing when last read, if another one has a snapshot
		}
		if down != nil && unreachable == nil {
			unreachable = fmt.Errorf("%v: reading dataId %s: %w", s, k.dataID, down)
		}
		if err != nil {
			errs = append(errs, err)
			if !s.cfg.StartFromSnapshot {
				break // Nacos is failing: the others would wait as long
			}
			continue
		}
		next[k.dataID] = c
	}
	if snapshots == len(s.kinds) {
		errs = append(errs, fmt.Errorf("%v: %w for any of %s", s, errNoSnapshot, l.ids()))
	}
	if ctx.Err() != nil {
		return
	}
	if len(errs) > 0 {
		err := errs[0]
		if len(errs) > 1 {
			err = fmt.Errorf("%w (and %d more dataIds)", err, len(errs)-1)
		}
		if skipped := len(s.kinds) - len(next) - len(errs); skipped > 0 {
			err = fmt.Errorf("%w (%d more dataIds not read)", err, skipped)
		}
		l.fail(ctx, err)
		return
	}
	if unreachable != nil {
		if !l.read || !maps.Equal(next, l.seen) {
			l.seen, l.read = next, true
			l.pushSeen(ctx)
		}
		l.fail(ctx, fmt.Errorf("%w; the rules read are the SDK's local snapshot", unreachable))
		return
	}
	if l.failing {
		l.failing = false
		s.cfg.Logger.Info("nacos answering again", "source", s.String())
		l.seen, l.read = next, true
		l.pushSeen(ctx) // unchanged or not, it clears the reported failure
		return
	}
	if !l.read || !maps.Equal(next, l.seen) {
		l.seen, l.read = next, true
		l.pushSeen(ctx)
	}
}

// pushSeen pushes the documents present, or reports them gone when none is
// left where the last push had some; then makes them Write's base.
func (l *watchLoop) pushSeen(ctx context.Context) {
	s := l.src
	s.mu.Lock()
	maps.Copy(s.base, l.seen)
	s.mu.Unlock()

	var docs []rules.Document
	for _, k := range s.kinds {
		if c := l.seen[k.dataID]; strings.TrimSpace(c) != "" {
			docs = append(docs, s.document(k, c))
		}
	}
	if len(docs) == 0 && l.had {
		s.cfg.Logger.Warn("nacos rules documents gone", "source", s.String())
		datasource.ReportError(ctx, fmt.Errorf("%v: every dataId (%s) is gone: %w", s, l.ids(), datasource.ErrGone))
		return
	}
	l.had = len(docs) > 0
	l.push(docs)
}

// ids lists the source's dataIds for messages.
func (l *watchLoop) ids() string {
	var ids []string
	for _, k := range l.src.kinds {
		ids = append(ids, k.dataID)
	}
	return strings.Join(ids, ", ")
}

// fail logs and reports a failure once per outage; the rules in force stay.
func (l *watchLoop) fail(ctx context.Context, err error) {
	s := l.src
	if l.failing {
		s.cfg.Logger.Debug("nacos still failing", "source", s.String(), "error", err.Error())
		return
	}
	l.failing = true
	s.cfg.Logger.Warn("nacos read failed", "source", s.String(), "error", err.Error())
	datasource.ReportError(ctx, fmt.Errorf("%w; the rules in force stay until Nacos answers", err))
}
