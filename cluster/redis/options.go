package redis

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"
)

// Defaults of the options.
const (
	DefaultNamespace         = "sentinel"
	DefaultTimeout           = 20 * time.Millisecond
	DefaultLeaseFraction     = 0.02
	DefaultHeartbeatInterval = time.Second
	DefaultHeartbeatTTL      = 3 * time.Second
	DefaultProbeInterval     = 200 * time.Millisecond
	DefaultCloseTimeout      = 100 * time.Millisecond
)

// config is what the options set.
type config struct {
	namespace         string
	timeout           time.Duration
	leaseFraction     float64
	logger            *slog.Logger
	instanceID        string
	heartbeatInterval time.Duration
	heartbeatTTL      time.Duration
	probeInterval     time.Duration
	closeTimeout      time.Duration
}

// Option configures NewTokenService.
type Option func(*config)

// WithNamespace sets the prefix of every key the service writes (default
// DefaultNamespace). Services share budgets only within one namespace; a
// flow's keys are "<namespace>:{<flowID>}:window" and
// "<namespace>:{<flowID>}:live", the braces keeping both in one Redis
// Cluster hash slot.
func WithNamespace(ns string) Option { return func(c *config) { c.namespace = ns } }

// WithTimeout bounds how long a call may wait for Redis (default
// DefaultTimeout, 20 ms). A call that must wait for a lease gets TokenFail
// when Redis has not answered by then, and the runtime applies the rule
// locally. Heartbeats and probes use the same bound.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithLeaseFraction sets the share of the window's remaining budget one
// lease takes, before it is divided among the live instances (default
// DefaultLeaseFraction, 0.02). Larger means fewer round trips and more budget
// possibly stranded in the lease of an instance whose traffic stops: at most
// about 1.25 × the fraction of the window's budget (see the package
// documentation). Must be in (0, 1].
func WithLeaseFraction(f float64) Option { return func(c *config) { c.leaseFraction = f } }

// WithLogger sets where the service reports Redis going down (Warn) and
// coming back (Info); default slog.Default().
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithInstanceID names this instance in the live sets (default: host name,
// process ID and a random suffix). Two services must never share an ID, or
// they count as one instance.
func WithInstanceID(id string) Option { return func(c *config) { c.instanceID = id } }

// WithHeartbeat sets how often the instance refreshes its entry in the live
// set of every flow it has used, and after how long without a refresh an
// entry expires (defaults DefaultHeartbeatInterval, DefaultHeartbeatTTL).
// ttl must exceed interval; a few intervals survive a lost heartbeat.
func WithHeartbeat(interval, ttl time.Duration) Option {
	return func(c *config) { c.heartbeatInterval, c.heartbeatTTL = interval, ttl }
}

// WithProbeInterval sets how often the service checks, while Redis is
// considered down, whether it answers again (default DefaultProbeInterval).
func WithProbeInterval(d time.Duration) Option { return func(c *config) { c.probeInterval = d } }

// WithCloseTimeout bounds how long Close waits for Redis to remove this
// instance from the live sets (default DefaultCloseTimeout, 100 ms). Close
// returns within about this bound whatever the client's options, even
// against a stalled Redis; if the removal has not been answered by then,
// Close returns an error and the entries expire after the heartbeat TTL,
// so AvgLocal budgets shrink only then.
func WithCloseTimeout(d time.Duration) Option { return func(c *config) { c.closeTimeout = d } }

func newConfig(opts []Option) (config, error) {
	c := config{
		namespace:         DefaultNamespace,
		timeout:           DefaultTimeout,
		leaseFraction:     DefaultLeaseFraction,
		heartbeatInterval: DefaultHeartbeatInterval,
		heartbeatTTL:      DefaultHeartbeatTTL,
		probeInterval:     DefaultProbeInterval,
		closeTimeout:      DefaultCloseTimeout,
	}
	for _, o := range opts {
		o(&c)
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	if c.instanceID == "" {
		c.instanceID = defaultInstanceID()
	}
	var errs []error
	if c.namespace == "" {
		errs = append(errs, errors.New("namespace is empty"))
	}
	if c.timeout <= 0 {
		errs = append(errs, fmt.Errorf("timeout %v must be > 0", c.timeout))
	}
	if !(c.leaseFraction > 0 && c.leaseFraction <= 1) {
		errs = append(errs, fmt.Errorf("lease fraction %v must be in (0, 1]", c.leaseFraction))
	}
	if c.heartbeatInterval <= 0 || c.heartbeatTTL <= c.heartbeatInterval {
		errs = append(errs, fmt.Errorf("heartbeat interval %v must be > 0 and below the TTL %v", c.heartbeatInterval, c.heartbeatTTL))
	}
	if c.probeInterval <= 0 {
		errs = append(errs, fmt.Errorf("probe interval %v must be > 0", c.probeInterval))
	}
	if c.closeTimeout <= 0 {
		errs = append(errs, fmt.Errorf("close timeout %v must be > 0", c.closeTimeout))
	}
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("cluster/redis: %w", err)
	}
	return c, nil
}

// defaultInstanceID is unique per process and readable in redis-cli.
func defaultInstanceID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
}
