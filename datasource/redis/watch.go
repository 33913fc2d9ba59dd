package redis

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Watch implements datasource.Source. It reads every key (one GET each in
// one MULTI/EXEC, bounded by Config.Timeout), pushes the documents present, subscribes to every
// channel, then pushes the full set again after every change a channel
// announces, until ctx ends; it then returns nil.
//
// A message on a channel makes the source read its key again rather than
// apply the message's text, as Sentinel's Java RedisDataSource does. The key
// is what a restarting service and every new instance load, so applying it
// keeps every instance on the rules a restart would give them even when a
// writer publishes without setting the key, or publishes something other
// than the rules; a burst of messages costs one read each and ends on the
// key's last value. Each time the subscription is made again after it was
// lost, every key is read again, so a change made while it was down is not
// lost. With Config.KeyspaceEvents a keyspace notification of a key makes
// it read again as well.
//
// A missing key is no document of its kind; a key that holds something
// other than a string is a failure naming it. When every key the last push
// had is gone, the source reports datasource.ErrGone instead of pushing an
// empty set. A failed read, a lost subscription or a server that stops
// answering is reported with datasource.ReportError naming the keys, once
// per outage, and retried every Config.RetryInterval; before the first push
// that makes datasource.Watch return the error at once, so a service never
// hangs on a Redis that is down.
func (s *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	if !s.watching.CompareAndSwap(false, true) {
		return fmt.Errorf("%v: already watching; a Source runs one Watch at a time", s)
	}
	defer s.watching.Store(false)

	l := &watchLoop{src: s, push: push, seen: map[string]string{}}
	stop := context.AfterFunc(ctx, l.closeSub)
	defer stop()
	defer l.closeSub()
	l.readAll(ctx)
	return l.run(ctx)
}

// watchLoop is the state of one Watch call; run is the only goroutine that
// calls push.
type watchLoop struct {
	src  *Source
	push func([]rules.Document)
	// seen is each key's content as last read ("" when missing).
	seen map[string]string
	// readOwed says the last read failed: every key is read again before
	// anything else is believed.
	readOwed bool
	// read says every key has been read once.
	read bool
	// failing says a failure was reported and nothing pushed since.
	failing bool
	// had says the last push held at least one document.
	had bool

	// mu guards sub, which closeSub closes when ctx ends.
	mu     sync.Mutex
	sub    *goredis.PubSub
	closed bool
}

// subscribe makes a new subscription to every channel; nil once ctx ended.
func (l *watchLoop) subscribe(ctx context.Context) *goredis.PubSub {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	if l.sub != nil {
		_ = l.sub.Close()
	}
	// Subscribe dials at once; an error shows again in the first Receive.
	l.sub = l.src.client.Subscribe(ctx, l.src.channels...)
	return l.sub
}

// closeSub ends the subscription, which also ends a Receive under way.
func (l *watchLoop) closeSub() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.sub != nil {
		_ = l.sub.Close()
		l.sub = nil
	}
}

func (l *watchLoop) run(ctx context.Context) error {
	s := l.src
	if ctx.Err() != nil {
		return nil
	}
	sub := l.subscribe(ctx)
	pinged := false // a PING is waiting for its answer
	for sub != nil {
		wait := s.cfg.PingInterval
		if pinged {
			wait = s.cfg.Timeout
		} else if l.readOwed && s.cfg.RetryInterval < wait {
			wait = s.cfg.RetryInterval
		}
		msg, err := sub.ReceiveTimeout(ctx, wait)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if !isTimeout(err) {
				l.fail(ctx, fmt.Errorf("%v: subscription to the rules channels lost: %w", s, err))
				pinged = false
				if !sleep(ctx, s.cfg.RetryInterval) {
					return nil
				}
				continue // the next Receive connects and subscribes again
			}
			if l.readOwed {
				l.readAll(ctx)
			}
			if pinged {
				l.fail(ctx, fmt.Errorf("%v: Redis did not answer a PING on the subscription within %v", s, s.cfg.Timeout))
				pinged = false
				if !sleep(ctx, s.cfg.RetryInterval) {
					return nil
				}
				sub = l.subscribe(ctx)
				continue
			}
			if err := sub.Ping(ctx); err != nil {
				l.fail(ctx, fmt.Errorf("%v: sending a PING on the subscription: %w", s, err))
				if !sleep(ctx, s.cfg.RetryInterval) {
					return nil
				}
				continue
			}
			pinged = true
			continue
		}
		pinged = false
		switch m := msg.(type) {
		case *goredis.Subscription:
			// Subscribed to every channel, the first time or after a
			// reconnection: whatever changed before is read now.
			if m.Kind == "subscribe" && m.Count == len(s.channels) {
				l.readAll(ctx)
			}
		case *goredis.Message:
			l.onMessage(ctx, m)
		}
	}
	return nil
}

// onMessage reads again the keys of the channel m came on and pushes the
// set when they changed.
func (l *watchLoop) onMessage(ctx context.Context, m *goredis.Message) {
	s := l.src
	if l.readOwed || !l.read {
		l.readAll(ctx)
		return
	}
	var keys []string
	announced := false // m came on a rules channel, not a keyspace one
	for _, k := range s.kinds {
		switch m.Channel {
		case k.channel:
			announced = true
			keys = append(keys, k.key)
		case k.keyspace:
			keys = append(keys, k.key)
		}
	}
	if len(keys) == 0 {
		return
	}
	got, err := s.readKeys(ctx, keys)
	if err != nil {
		l.readOwed = true
		l.fail(ctx, err)
		return
	}
	if announced && len(keys) == 1 && got[keys[0]] != m.Payload {
		s.cfg.Logger.Debug("redis message differs from its key; applying the key, as a restart would",
			"source", s.String(), "channel", m.Channel, "key", keys[0])
	}
	next := maps.Clone(l.seen)
	maps.Copy(next, got)
	if l.failing || !maps.Equal(next, l.seen) {
		l.seen = next
		l.pushSeen(ctx)
	}
}

// readAll reads every key; on success it pushes them when they differ from
// the ones seen (always the first time, and after a failure), else it
// reports the failure.
func (l *watchLoop) readAll(ctx context.Context) {
	s := l.src
	next, err := s.readKeys(ctx, s.allKeys())
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		l.readOwed = true
		l.fail(ctx, err)
		return
	}
	l.readOwed = false
	if !l.read || l.failing || !maps.Equal(next, l.seen) {
		l.seen, l.read = next, true
		l.pushSeen(ctx)
	}
}

// pushSeen pushes the documents present, or reports them gone when none is
// left where the last push had some; then makes them Write's base.
func (l *watchLoop) pushSeen(ctx context.Context) {
	s := l.src
	if l.failing {
		l.failing = false
		s.cfg.Logger.Info("redis answering again", "source", s.String())
	}
	s.mu.Lock()
	maps.Copy(s.base, l.seen)
	s.mu.Unlock()

	var docs []rules.Document
	for _, k := range s.kinds {
		if c := l.seen[k.key]; strings.TrimSpace(c) != "" {
			docs = append(docs, document(k, c))
		}
	}
	if len(docs) == 0 && l.had {
		s.cfg.Logger.Warn("redis rules documents gone", "source", s.String())
		datasource.ReportError(ctx, fmt.Errorf("%v: every key (%s) is gone: %w", s, strings.Join(s.allKeys(), ", "), datasource.ErrGone))
		return
	}
	l.had = len(docs) > 0
	l.push(docs)
}

// fail logs and reports a failure once per outage; the rules in force stay.
func (l *watchLoop) fail(ctx context.Context, err error) {
	s := l.src
	if l.failing {
		s.cfg.Logger.Debug("redis still failing", "source", s.String(), "error", err.Error())
		return
	}
	l.failing = true
	s.cfg.Logger.Warn("redis failed", "source", s.String(), "error", err.Error())
	datasource.ReportError(ctx, fmt.Errorf("%w (keys %s); the rules in force stay until Redis answers",
		err, strings.Join(s.allKeys(), ", ")))
}

// isTimeout reports whether err is a read that found nothing within its
// deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// sleep waits d, or less when ctx ends first; it reports whether ctx is
// still alive.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
