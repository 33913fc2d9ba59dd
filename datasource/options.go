package datasource

import (
	"log/slog"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
)

// WatchOption configures Watch.
type WatchOption interface {
	applyWatch(*watchConfig)
}

// PersistOption configures Persist and Watcher.Persist.
type PersistOption interface {
	applyPersist(*persistConfig)
}

// Option configures both Watch and Persist; WithLogger is one.
type Option interface {
	WatchOption
	PersistOption
}

// watchConfig is what WatchOptions set.
type watchConfig struct {
	logger         *slog.Logger
	apply          func(rules.Set) error
	customApply    bool
	initialTimeout time.Duration
	kinds          []rules.Kind // WithKinds; nil: the kinds the source has held
	goneMeansEmpty bool         // see WithGoneMeansEmpty
}

// persistConfig is what PersistOptions set.
type persistConfig struct {
	logger   *slog.Logger
	debounce time.Duration
}

// DefaultDebounce is how long Persist waits after a rule change before
// writing, so the flow and degrade notifications of one LoadRules (and a
// burst of API calls) make one write.
const DefaultDebounce = 50 * time.Millisecond

func newWatchConfig(opts []WatchOption) watchConfig {
	cfg := watchConfig{apply: rules.Apply}
	for _, o := range opts {
		o.applyWatch(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	return cfg
}

func newPersistConfig(opts []PersistOption) persistConfig {
	cfg := persistConfig{debounce: DefaultDebounce}
	for _, o := range opts {
		o.applyPersist(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	return cfg
}

type watchOption func(*watchConfig)

func (f watchOption) applyWatch(c *watchConfig) { f(c) }

type persistOption func(*persistConfig)

func (f persistOption) applyPersist(c *persistConfig) { f(c) }

// loggerOption is the Option made by WithLogger.
type loggerOption struct{ l *slog.Logger }

func (o loggerOption) applyWatch(c *watchConfig)     { c.logger = o.l }
func (o loggerOption) applyPersist(c *persistConfig) { c.logger = o.l }

// WithLogger sends the watcher's or persister's records to l instead of
// slog.Default(): Error for a rejected update or a failed write (attributes
// source and error), Warn for a document's warnings, Info for each applied
// update (with the flow and degrade rule counts) and each write.
func WithLogger(l *slog.Logger) Option { return loggerOption{l} }

// WithApplier replaces rules.Update as the way a good Set is put in force, for
// tests and for runtimes other than this module's; it gets the whole set
// and is not serialized with package rules' other writers. A non-nil error
// rejects the update like a parse error. With a custom applier the Watcher compares a
// push with its Property, not with the runtime, to skip re-applying.
func WithApplier(fn func(rules.Set) error) WatchOption {
	return watchOption(func(c *watchConfig) { c.apply, c.customApply = fn, true })
}

// WithInitialTimeout bounds how long Watch waits for the source's first
// update; by default it waits until its context ends.
func WithInitialTimeout(d time.Duration) WatchOption {
	return watchOption(func(c *watchConfig) { c.initialTimeout = d })
}

// WithDebounce sets how long Persist gathers rule changes before it writes
// (DefaultDebounce).
func WithDebounce(d time.Duration) PersistOption {
	return persistOption(func(c *persistConfig) { c.debounce = d })
}

// WithKinds binds the watcher to the rule kinds it owns, as Sentinel binds
// each data source to one rule manager: an update from the source replaces
// the rules of these kinds in force and leaves every other kind (a kind the
// dashboard pushed, or another source owns) as it is; rules of other kinds
// in its documents are ignored. Watcher.Persist writes back only these
// kinds. Without WithKinds a watcher owns every kind its source has held a
// rule of since it started (see Watcher.Kinds). Kinds are rules.Kinds and
// the gateway's two (rules.AllKinds); Watch refuses any other. With
// WithApplier the applier gets the whole set and ownership is its own.
func WithKinds(kinds ...rules.Kind) WatchOption {
	kinds = append([]rules.Kind{}, kinds...)
	return watchOption(func(c *watchConfig) { c.kinds = kinds })
}
