package etcd

import (
	"log/slog"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
)

// Option configures a Source.
type Option func(*config)

type config struct {
	prefix         bool
	format         rules.Format
	kind           rules.Kind
	backoffMin     time.Duration
	backoffMax     time.Duration
	requestTimeout time.Duration
	probeInterval  time.Duration
	probeTimeout   time.Duration
	logger         *slog.Logger
}

// Defaults: the first retry after a failure waits about 100 ms, doubling up
// to 5 s, so a restarting etcd is picked up quickly without a storm of
// retries from every instance while it is down.
const (
	defaultBackoffMin     = 100 * time.Millisecond
	defaultBackoffMax     = 5 * time.Second
	defaultRequestTimeout = 5 * time.Second
)

// Default probe timings (see WithProbe): a server that stops answering is
// reported at most DefaultProbeInterval + DefaultProbeTimeout after it
// stopped, and one that came back with another history is read again within
// DefaultProbeInterval.
const (
	DefaultProbeInterval = 5 * time.Second
	DefaultProbeTimeout  = 5 * time.Second
)

func newConfig(opts []Option) config {
	c := config{
		backoffMin:     defaultBackoffMin,
		backoffMax:     defaultBackoffMax,
		requestTimeout: defaultRequestTimeout,
		probeInterval:  DefaultProbeInterval,
		probeTimeout:   DefaultProbeTimeout,
		logger:         slog.Default(),
	}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithPrefix watches every key that starts with the source's key, each one a
// document, instead of the key alone. A layout with one key per rule kind
// (/sentinel/orders/flow.json, /sentinel/orders/degrade.json) or one key per
// team is then one rule set: the merge of all documents, in key order. End
// the key with "/": etcd prefixes are plain strings, so "/sentinel/orders"
// would also match "/sentinel/orders-old/flow.json".
func WithPrefix() Option { return func(c *config) { c.prefix = true } }

// WithFormat sets the format of every document instead of inferring it from
// the key's extension (.toml, .json) and then the content. Keys that Write
// creates get the matching extension; by default they are JSON.
func WithFormat(f rules.Format) Option { return func(c *config) { c.format = f } }

// WithKind sets the rule kind of every Sentinel JSON document instead of
// inferring it from the key's last element ("flow", "degrade") or from the
// rules' fields. It is meant for a single key holding one kind under a name
// that does not say which, e.g. a key shared with a Java service.
func WithKind(k rules.Kind) Option { return func(c *config) { c.kind = k } }

// WithBackoff sets the wait between retries after etcd fails: the first wait
// is about min, each following one doubles up to max, with random jitter so
// many instances do not retry in step. Non-positive values keep the default
// (100 ms .. 5 s).
func WithBackoff(min, max time.Duration) Option {
	return func(c *config) {
		if min > 0 {
			c.backoffMin = min
		}
		if max > 0 {
			c.backoffMax = max
		}
		if c.backoffMax < c.backoffMin {
			c.backoffMax = c.backoffMin
		}
	}
}

// WithRequestTimeout bounds each read of the key or prefix (the first one and
// the full re-reads; one that times out is retried with backoff) and each
// Write whose context has no deadline. The default is 5 s.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.requestTimeout = d
		}
	}
}

// WithProbe sets how often a watching source reads its keys to check the
// server (every interval, and whenever the connection comes back) and how
// long it waits for the answer. A server that does not answer within timeout
// (hung, stopped, stuck) is reported through datasource.ReportError, the
// rules in force staying, until a read answers. A read showing another
// history than the watch followed (a changed cluster ID, a revision that
// went back, a value that differs at a revision already seen) makes the
// source push what it read and watch again from there. Non-positive values
// keep the defaults (DefaultProbeInterval, DefaultProbeTimeout).
func WithProbe(interval, timeout time.Duration) Option {
	return func(c *config) {
		if interval > 0 {
			c.probeInterval = interval
		}
		if timeout > 0 {
			c.probeTimeout = timeout
		}
	}
}

// WithLogger sets where the source logs losing and regaining etcd; the
// default is slog.Default(). Rejected documents are logged by datasource.Watch.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}
