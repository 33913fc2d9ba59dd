// Package blocklog writes Sentinel's block log through log/slog: once a
// second, one record per resource that had blocked calls, with the count of
// blocks by rule kind and by rule (the shape of Sentinel's
// sentinel-block.log, which keeps one line per resource, exception and rule
// each second).
//
// Nothing is written on the request path: the runtime only bumps a counter
// per rule (runtime.BlockError.Blocked), and a goroutine reads those counters
// once a second. A flood of blocks therefore cannot flood the log: a resource
// gets at most one record a second however often it is blocked, and at most
// Config.MaxLines resources are written each second (those with the most
// blocks); the others are summed up in one more record. The log thus holds
// at most MaxLines+1 records a second.
package blocklog

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// DefaultMaxLines is the number of resources written per second when
// Config.MaxLines is 0.
const DefaultMaxLines = 100

// Messages of the records, for handlers that route them.
const (
	// MsgBlocked is the message of a resource's record.
	MsgBlocked = "sentinel blocked"
	// MsgSuppressed is the message of the record that sums up the resources
	// left out of a second's records by Config.MaxLines.
	MsgSuppressed = "sentinel blocked, more resources suppressed"
)

// Config configures a Logger.
type Config struct {
	// Logger receives the records; slog.Default() when nil.
	Logger *slog.Logger
	// Level is the records' level (the zero value is slog.LevelInfo).
	Level slog.Level
	// MaxLines caps the resources written per second; DefaultMaxLines when
	// 0. The rest are summed up in one MsgSuppressed record.
	MaxLines int
}

// Logger turns the runtime's per-rule block counters into block-log records.
// Its methods may be called from several goroutines.
type Logger struct {
	cfg Config

	mu   sync.Mutex
	last map[*runtime.BlockError]uint32 // each rule's count at the last tick
	prev time.Time                      // time of the last tick
	buf  []*runtime.BlockError
	stop func()
	done chan struct{}
}

// New returns a Logger whose first Tick reports the blocks from now on:
// the counts so far are its baseline.
func New(cfg Config) *Logger {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxLines <= 0 {
		cfg.MaxLines = DefaultMaxLines
	}
	l := &Logger{cfg: cfg, last: map[*runtime.BlockError]uint32{}}
	l.read(func(*runtime.Resource, *runtime.BlockError, int64) {})
	return l
}

// Start returns a Logger that ticks once a wall-clock second, just after
// each second ends, until Close.
func Start(cfg Config) *Logger {
	l := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	l.stop, l.done = cancel, make(chan struct{})
	go func() {
		defer close(l.done)
		l.run(ctx, time.Now, time.After)
	}()
	return l
}

// Close stops the goroutine of Start (a no-op for a Logger from New) and
// waits for it. The blocks of the second in progress are not written.
func (l *Logger) Close() {
	if l.stop != nil {
		l.stop()
		<-l.done
	}
}

// run ticks just after every wall-clock second until ctx ends. now and after
// stand for time.Now and time.After.
func (l *Logger) run(ctx context.Context, now func() time.Time, after func(time.Duration) <-chan time.Time) {
	for {
		t := now()
		// 10 ms past the boundary, so that the tick's second is the one
		// that just ended even when the timer fires a little early.
		wait := t.Truncate(time.Second).Add(time.Second + 10*time.Millisecond).Sub(t)
		select {
		case <-ctx.Done():
			return
		case <-after(wait):
			l.Tick(now())
		}
	}
}

// count is one rule's blocks since the last tick.
type count struct {
	rule  *runtime.BlockError
	delta int64
}

// line is one resource's blocks since the last tick.
type line struct {
	resource string
	total    int64
	rules    []count
}

// Tick writes the records of the blocks since the last tick (or since New),
// stamped with the second before now (the second that just ended when
// called on a second boundary, as Start does). A tick more than a second
// after the last one (a starved goroutine) also says how many seconds its
// counts span.
func (l *Logger) Tick(now time.Time) {
	l.mu.Lock()
	var lines []line
	l.read(func(r *runtime.Resource, e *runtime.BlockError, delta int64) {
		if n := len(lines); n == 0 || lines[n-1].resource != r.Name() {
			lines = append(lines, line{resource: r.Name()})
		}
		ln := &lines[len(lines)-1]
		ln.total += delta
		ln.rules = append(ln.rules, count{e, delta})
	})
	span := time.Second
	if !l.prev.IsZero() && now.Sub(l.prev) > span+span/2 {
		span = now.Sub(l.prev).Round(time.Second)
	}
	l.prev = now
	l.mu.Unlock()
	if len(lines) == 0 {
		return
	}
	second := now.Truncate(time.Second).Add(-time.Second)
	// The busiest resources first, so that a cap drops the quiet ones.
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(b.total, a.total) })
	kept := lines[:min(len(lines), l.cfg.MaxLines)]
	ctx := context.Background()
	for _, ln := range kept {
		l.cfg.Logger.LogAttrs(ctx, l.cfg.Level, MsgBlocked, lineAttrs(second, span, ln)...)
	}
	if rest := lines[len(kept):]; len(rest) > 0 {
		var total int64
		for _, ln := range rest {
			total += ln.total
		}
		attrs := []slog.Attr{secondAttr(second), slog.Int("resources", len(rest)), slog.Int64("blocked", total)}
		if span > time.Second {
			attrs = append(attrs, slog.Int64("seconds", int64(span/time.Second)))
		}
		l.cfg.Logger.LogAttrs(ctx, l.cfg.Level, MsgSuppressed, attrs...)
	}
}

// read calls fn, resource by resource in name order, for every rule that
// blocked calls since the last read, and records the new counts. Rules no
// longer in force are forgotten. The caller holds l.mu (or owns l).
func (l *Logger) read(fn func(*runtime.Resource, *runtime.BlockError, int64)) {
	seen := make(map[*runtime.BlockError]uint32, len(l.last))
	for _, r := range runtime.Resources() {
		l.buf = r.BlockErrors(l.buf[:0])
		for _, e := range l.buf {
			n := e.Blocked()
			seen[e] = n
			// A rule first seen counts from zero: it was loaded since the
			// last read (New took the baseline of the others). uint32
			// arithmetic: the counter wraps.
			if d := int64(n - l.last[e]); d > 0 {
				fn(r, e, d)
			}
		}
	}
	clear(l.buf)
	l.last = seen
}

func secondAttr(second time.Time) slog.Attr {
	return slog.String("second", second.Format("2006-01-02 15:04:05"))
}

// lineAttrs are a resource's record: the second, the resource, the total,
// a group of counts by rule kind and a group of counts by rule (keyed by
// the rule's description, BlockError.Rule).
func lineAttrs(second time.Time, span time.Duration, ln line) []slog.Attr {
	var kinds []slog.Attr
	rules := make([]any, 0, len(ln.rules))
	for _, c := range ln.rules {
		kind := c.rule.Type().String()
		i := slices.IndexFunc(kinds, func(a slog.Attr) bool { return a.Key == kind })
		if i < 0 {
			kinds = append(kinds, slog.Int64(kind, c.delta))
		} else {
			kinds[i].Value = slog.Int64Value(kinds[i].Value.Int64() + c.delta)
		}
		rules = append(rules, slog.Int64(c.rule.Rule(), c.delta))
	}
	attrs := []slog.Attr{
		secondAttr(second),
		slog.String("resource", ln.resource),
		slog.Int64("blocked", ln.total),
		slog.Attr{Key: "types", Value: slog.GroupValue(kinds...)},
		slog.Group("rules", rules...),
	}
	if span > time.Second {
		attrs = append(attrs, slog.Int64("seconds", int64(span/time.Second)))
	}
	return attrs
}
