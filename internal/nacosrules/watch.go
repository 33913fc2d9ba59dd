package nacosrules

import (
	"context"
	"errors"
	"maps"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Watch implements datasource.Source: it reads every dataId (each read
// bounded by the client's timeout), pushes the documents present, then
// long-polls Nacos and pushes the full set again after every change, until
// ctx ends; it then returns nil.
//
// A missing dataId is no document of its kind; when every dataId the last
// push had is gone, it reports datasource.ErrGone instead of pushing an
// empty set. A failed read or poll is reported with datasource.ReportError,
// naming the dataId, and retried every Config.RetryInterval; before the
// first push that makes datasource.Watch return the error, so a service
// never waits on a Nacos that is down.
func (s *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	if !s.watching.CompareAndSwap(false, true) {
		return s.errorf("already watching; a Source runs one Watch at a time")
	}
	defer s.watching.Store(false)
	l := &watchLoop{src: s, push: push}
	read, announced := true, false
	for ctx.Err() == nil {
		if read {
			if !l.readAll(ctx) {
				sleep(ctx, s.cfg.RetryInterval)
				continue
			}
			if announced && !l.pushedLast {
				// Nacos announced a change the read did not see yet (its
				// reads follow its writes a moment behind): wait a little
				// rather than poll again at once.
				sleep(ctx, settle)
			}
			read, announced = false, false
		}
		changed, err := s.cfg.Client.Listen(ctx, s.cfg.Hold, l.watched())
		switch {
		case ctx.Err() != nil:
		case err != nil:
			l.fail(ctx, s.errorf("watching %s: %w", l.ids(), err))
			sleep(ctx, s.cfg.RetryInterval)
			read = true // a good read ends the failure
		case len(changed) > 0:
			read, announced = true, true
		}
		// No change within the hold: poll again.
	}
	return nil
}

// settle is the pause after a change was announced but not yet readable.
const settle = 50 * time.Millisecond

// watchLoop is the state of one Watch call.
type watchLoop struct {
	src  *Source
	push func([]rules.Document)
	// seen is each dataId's content as last read ("" when missing); nil
	// before the first good read.
	seen map[string]string
	// failing says a failure was reported and nothing pushed since.
	failing bool
	// had says the last push held at least one document.
	had bool
	// pushedLast says the last readAll pushed (or reported gone).
	pushedLast bool
}

// readAll reads every dataId and pushes them when they differ from those
// seen (always the first time and after a failure); it reports a failed
// read and returns false. A read that may be older than the rules in force
// (see behind) is made again after a pause, within staleReads.
func (l *watchLoop) readAll(ctx context.Context) bool {
	s := l.src
	l.pushedLast = false
	deadline := time.Now().Add(staleReads)
	var next map[string]string
	for {
		gen := rules.Generation()
		var ok bool
		if next, ok = l.readOnce(ctx); !ok {
			return false
		}
		if !s.behind(next, gen) || time.Now().After(deadline) {
			break
		}
		sleep(ctx, settle)
	}
	if l.seen != nil && !l.failing && maps.Equal(next, l.seen) {
		return true
	}
	l.seen = next
	l.pushSeen(ctx)
	l.pushedLast = true
	return true
}

// readOnce reads every dataId ("" for a missing one); it reports a failure
// and returns false.
func (l *watchLoop) readOnce(ctx context.Context) (map[string]string, bool) {
	s := l.src
	next := make(map[string]string, len(s.kinds))
	for _, k := range s.kinds {
		c, _, err := s.cfg.Client.Get(ctx, k.dataID, s.cfg.Group, s.cfg.Namespace)
		if errors.Is(err, nacosapi.ErrNotFound) {
			c, err = "", nil
		}
		if ctx.Err() != nil {
			return nil, false
		}
		if err != nil {
			l.fail(ctx, s.errorf("%w; the rules in force stay until Nacos answers", err))
			return nil, false
		}
		next[k.dataID] = c
	}
	return next, true
}

// behind reports whether contents read while the rules in force were at
// generation gen may be older than those rules: put in force, they would
// undo a dashboard push until its own write comes back. That is so when the
// rules in force changed during the read (a push is put in force before it
// is written), when a Write is under way, or when a dataId this source
// wrote within staleReads reads otherwise than written (Nacos serves reads
// from a cache that follows its writes a moment behind).
func (s *Source) behind(read map[string]string, gen uint64) bool {
	if rules.Generation() != gen || s.writing.Load() > 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, w := range s.written {
		if time.Since(w.at) < staleReads && read[id] != w.content {
			return true
		}
	}
	return false
}

// pushSeen makes the contents seen Write's base, then pushes the documents
// present, or reports them gone when none is left where the last push had
// some.
func (l *watchLoop) pushSeen(ctx context.Context) {
	s := l.src
	if l.failing {
		l.failing = false
		s.cfg.Logger.Info("nacos answering again", "source", s.String())
	}
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
		datasource.ReportError(ctx, s.errorf("every dataId (%s) is gone: %w", l.ids(), datasource.ErrGone))
		return
	}
	l.had = len(docs) > 0
	l.push(docs)
}

// fail logs and reports a failure once per outage.
func (l *watchLoop) fail(ctx context.Context, err error) {
	s := l.src
	if l.failing {
		s.cfg.Logger.Debug("nacos still failing", "source", s.String(), "error", err.Error())
		return
	}
	l.failing = true
	s.cfg.Logger.Warn("nacos read failed", "source", s.String(), "error", err.Error())
	datasource.ReportError(ctx, err)
}

// watched is what the long poll compares: the MD5 of each dataId's content
// as last read ("" for a missing one).
func (l *watchLoop) watched() []nacosapi.Watched {
	s := l.src
	w := make([]nacosapi.Watched, 0, len(s.kinds))
	for _, k := range s.kinds {
		sum := ""
		if c := l.seen[k.dataID]; c != "" {
			sum = nacosapi.MD5(c)
		}
		w = append(w, nacosapi.Watched{DataID: k.dataID, Group: s.cfg.Group, Namespace: s.cfg.Namespace, MD5: sum})
	}
	return w
}

// ids lists the source's dataIds for messages.
func (l *watchLoop) ids() string {
	ids := make([]string, 0, len(l.src.kinds))
	for _, k := range l.src.kinds {
		ids = append(ids, k.dataID)
	}
	return strings.Join(ids, ", ")
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
