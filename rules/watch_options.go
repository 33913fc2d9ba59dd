package rules

import (
	"log/slog"
	"time"
)

// Option configures Watch, WatchFile and Persist.
type Option interface {
	applyOption(*config)
}

// FileOption configures a FileWatchSource. Every FileOption is also an
// Option, so WatchFile takes them directly.
type FileOption interface {
	Option
	applyFile(*fileConfig)
}

// config is what Options set.
type config struct {
	logger         *slog.Logger
	apply          func(Set) error
	customApply    bool
	initialTimeout time.Duration
	debounce       time.Duration
	fileOptions    []FileOption
}

// fileConfig is what FileOptions set.
type fileConfig struct {
	pollInterval time.Duration
}

// DefaultDebounce is how long Persist waits after a rule change before
// writing, so the flow and degrade notifications of one LoadRules (and a
// burst of API calls) make one write.
const DefaultDebounce = 50 * time.Millisecond

func newConfig(opts []Option) config {
	cfg := config{apply: Apply, debounce: DefaultDebounce}
	for _, o := range opts {
		o.applyOption(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	return cfg
}

type optionFunc func(*config)

func (f optionFunc) applyOption(c *config) { f(c) }

// WithLogger sends the watcher's or persister's records to l instead of
// slog.Default(): Error for a rejected update or a failed write (attributes
// source and error), Warn for a document's warnings, Info for each applied
// update (with the flow and degrade rule counts) and each write.
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(c *config) { c.logger = l })
}

// WithApplier replaces Apply as the way a good Set is put in force, for tests
// and for runtimes other than this module's. A non-nil error rejects the
// update like a parse error. With a custom applier the Watcher compares a
// push with its Property, not with the runtime, to skip re-applying.
func WithApplier(fn func(Set) error) Option {
	return optionFunc(func(c *config) { c.apply, c.customApply = fn, true })
}

// WithInitialTimeout bounds how long Watch waits for the source's first
// update; by default it waits until its context ends.
func WithInitialTimeout(d time.Duration) Option {
	return optionFunc(func(c *config) { c.initialTimeout = d })
}

// WithDebounce sets how long Persist gathers rule changes before it writes
// (DefaultDebounce). Watch ignores it.
func WithDebounce(d time.Duration) Option {
	return optionFunc(func(c *config) { c.debounce = d })
}

// pollInterval is the FileOption made by WithPollInterval.
type pollInterval time.Duration

func (p pollInterval) applyOption(c *config) { c.fileOptions = append(c.fileOptions, p) }

func (p pollInterval) applyFile(c *fileConfig) { c.pollInterval = time.Duration(p) }

// WithPollInterval sets how often a file source looks at its file
// (DefaultPollInterval): the longest a change goes unseen. Values <= 0 mean
// the default.
func WithPollInterval(d time.Duration) FileOption { return pollInterval(d) }
