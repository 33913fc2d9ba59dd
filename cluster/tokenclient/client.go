// Package tokenclient is a client of Sentinel 1.8's cluster token server,
// Java's (sentinel-cluster-server-default) or Go's (package tokenserver): a
// runtime.TokenService that asks the server, over Sentinel's protocol, for a
// token per call of a flow rule in cluster mode.
//
//	c, err := tokenclient.New(tokenclient.Config{Addr: "10.0.0.5:18730", Namespace: "orders"})
//	...
//	runtime.SetTokenService(c)
//	defer c.Close()
//
// A call waits at most Config.RequestTimeout for its answer (Sentinel's 20 ms
// by default); past it, or while the server is unreachable, the answer is
// TokenFail and the runtime falls back to the rule's local check or passes
// the call, as the rule's FallbackToLocalWhenFail says. The client connects
// in the background, announces its namespace with a PING, and reconnects
// with a back-off when the connection is lost.
package tokenclient

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/internal/tokenwire"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// DefaultRequestTimeout is Sentinel's client request timeout.
const DefaultRequestTimeout = 20 * time.Millisecond

// DefaultConnectTimeout bounds one connection attempt.
const DefaultConnectTimeout = 10 * time.Second

// Reconnection back-off: the first retry after minBackoff, doubling up to
// maxBackoff, so a server that comes back is reached within maxBackoff.
const (
	minBackoff = 200 * time.Millisecond
	maxBackoff = 2 * time.Second
)

// Config configures a Client.
type Config struct {
	// Addr is the token server, host:port. Required.
	Addr string
	// Namespace is what the client announces to the server: the namespace
	// whose rules it uses and whose connected clients an AVG_LOCAL rule
	// counts. Sentinel's default is the application's name. Required.
	Namespace string
	// RequestTimeout bounds how long a call waits for its token (zero means
	// DefaultRequestTimeout).
	RequestTimeout time.Duration
	// ConnectTimeout bounds a connection attempt (zero means
	// DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// Logger receives connection changes; nil means slog.Default().
	Logger *slog.Logger
}

// Client is a token client; it implements runtime.TokenService and is safe
// for concurrent use.
type Client struct {
	cfg Config
	log *slog.Logger

	conn atomic.Pointer[session] // nil while not connected

	pmu     sync.Mutex
	pending map[int32]*waiter
	xid     int32

	stop chan struct{}
	done chan struct{}
	once sync.Once

	answered, timedOut, unsent atomic.Uint64
}

// Stats counts the client's requests by outcome since it was created.
type Stats struct {
	// Answered requests got the server's answer in time; TimedOut did not
	// and were answered TokenFail; Unsent found no connection (or failed
	// to write) and were answered TokenFail without waiting.
	Answered, TimedOut, Unsent uint64
}

// Stats returns the client's counts.
func (c *Client) Stats() Stats {
	return Stats{Answered: c.answered.Load(), TimedOut: c.timedOut.Load(), Unsent: c.unsent.Load()}
}

// waiter is one call waiting for its answer. Waiters are pooled, each with
// its channel and timer, so a call allocates nothing.
type waiter struct {
	ch    chan tokenwire.Response
	timer *time.Timer
}

var waiters = sync.Pool{New: func() any {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &waiter{ch: make(chan tokenwire.Response, 1), timer: t}
}}

// New returns a client and starts connecting to cfg.Addr in the background.
func New(cfg Config) (*Client, error) {
	if cfg.Addr == "" {
		return nil, errors.New("tokenclient: Config.Addr is empty")
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return nil, fmt.Errorf("tokenclient: server address %q: %w", cfg.Addr, err)
	}
	if cfg.Namespace == "" {
		return nil, errors.New("tokenclient: Config.Namespace is empty (Sentinel uses the application's name)")
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	c := &Client{cfg: cfg, log: cfg.Logger, pending: make(map[int32]*waiter, 256),
		stop: make(chan struct{}), done: make(chan struct{})}
	if c.log == nil {
		c.log = slog.Default()
	}
	go c.keepConnected()
	return c, nil
}

// Connected reports whether the client holds a connection to the server.
func (c *Client) Connected() bool { return c.conn.Load() != nil }

// Close closes the connection and stops reconnecting; calls answer
// TokenFail from then on.
func (c *Client) Close() error {
	c.once.Do(func() { close(c.stop) })
	<-c.done
	return nil
}

// Answer is the server's answer to one token request.
type Answer struct {
	Status runtime.TokenStatus
	// Remaining is the budget left after an OK; WaitMs how long a
	// SHOULD_WAIT call must wait before it passes.
	Remaining, WaitMs int32
}

// RequestToken implements runtime.TokenService: it asks the server for
// acquire tokens of rule's flowId and waits at most the request timeout.
func (c *Client) RequestToken(rule *runtime.FlowRule, acquire int64, prioritized bool) runtime.TokenResult {
	if acquire > 1<<31-1 {
		return runtime.TokenResult{Status: runtime.TokenBadRequest}
	}
	a := c.Request(rule.ClusterConfig.FlowID, int32(acquire), prioritized)
	return runtime.TokenResult{Status: a.Status, WaitMs: int64(a.WaitMs)}
}

// Request asks the server for acquire tokens of flowID and waits at most
// the request timeout: TokenFail when no answer came in time or the client
// is not connected, TokenBadRequest (not sent) for a flowID or acquire
// below 1.
func (c *Client) Request(flowID int64, acquire int32, prioritized bool) Answer {
	return c.call(flowID, acquire, prioritized, nil)
}

// RequestParam asks the server for acquire tokens of every value of arg
// under the hot-parameter rule flowID, as RequestParamToken does, and
// returns the whole answer.
func (c *Client) RequestParam(flowID int64, acquire int32, arg *runtime.ParamArg) Answer {
	return c.call(flowID, acquire, false, arg)
}

// RequestParamToken implements runtime.ParamTokenService: it asks the
// server for acquire tokens of every value of arg under rule's flowId.
// Integers go as Java longs, floats as doubles: the Go token server counts
// every width of a number as one value, Java's server only values of the
// same Java type. An argument whose values do not fit one frame is
// answered TokenFail (so checked locally).
func (c *Client) RequestParamToken(rule *runtime.ParamFlowRule, acquire int64, arg runtime.ParamArg) runtime.TokenResult {
	if acquire > 1<<31-1 {
		return runtime.TokenResult{Status: runtime.TokenBadRequest}
	}
	a := c.call(rule.ClusterConfig.FlowID, int32(acquire), false, &arg)
	return runtime.TokenResult{Status: a.Status, WaitMs: int64(a.WaitMs)}
}

// call sends a FLOW request, or a PARAM_FLOW request of arg's values when
// arg is not nil, and waits for its answer.
func (c *Client) call(flowID int64, acquire int32, prioritized bool, arg *runtime.ParamArg) Answer {
	if flowID <= 0 || acquire <= 0 || (arg != nil && arg.Len() == 0) {
		return Answer{Status: runtime.TokenBadRequest}
	}
	s := c.conn.Load()
	if s == nil {
		c.unsent.Add(1)
		return Answer{Status: runtime.TokenFail}
	}
	w := waiters.Get().(*waiter)
	xid := c.register(w)
	var err error
	if arg == nil {
		err = s.writeFlow(xid, flowID, acquire, prioritized)
	} else {
		err = s.writeParamFlow(xid, flowID, acquire, arg)
	}
	if err != nil {
		c.unregister(xid)
		waiters.Put(w)
		if !errors.Is(err, tokenwire.ErrFrameTooLarge) {
			s.fail(err)
		}
		c.unsent.Add(1)
		return Answer{Status: runtime.TokenFail}
	}
	w.timer.Reset(c.cfg.RequestTimeout)
	a := Answer{Status: runtime.TokenFail}
	select {
	case resp := <-w.ch:
		a = Answer{Status: runtime.TokenStatus(resp.Status), Remaining: resp.Remaining, WaitMs: resp.WaitMs}
		c.answered.Add(1)
	case <-w.timer.C:
		c.timedOut.Add(1)
	}
	w.timer.Stop()
	if !c.unregister(xid) {
		// The answer raced the timeout and was sent: drain it so the
		// pooled channel is empty for its next call.
		select {
		case <-w.ch:
		default:
		}
	}
	waiters.Put(w)
	return a
}

// register gives w the next request id (1 to 999999999, then 1 again, as
// Java's client numbers them).
func (c *Client) register(w *waiter) int32 {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	for {
		c.xid++
		if c.xid > 999999999 {
			c.xid = 1
		}
		if _, taken := c.pending[c.xid]; !taken {
			c.pending[c.xid] = w
			return c.xid
		}
	}
}

// unregister removes xid's waiter, reporting whether it was still there
// (false when the reader took it to deliver an answer).
func (c *Client) unregister(xid int32) bool {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if _, ok := c.pending[xid]; !ok {
		return false
	}
	delete(c.pending, xid)
	return true
}

// deliver hands resp to the call waiting for it; a late answer, whose
// call has given up, is dropped.
func (c *Client) deliver(resp tokenwire.Response) {
	c.pmu.Lock()
	w, ok := c.pending[resp.XID]
	if ok {
		delete(c.pending, resp.XID)
	}
	c.pmu.Unlock()
	if ok {
		w.ch <- resp
	}
}
