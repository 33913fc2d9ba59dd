// Package tokenserver is a token server of Sentinel 1.8's cluster flow
// control: Java clients (sentinel-cluster-client-default) and Go clients
// (package tokenclient) ask it, over Sentinel's own protocol, for a token
// per call of a flow rule in cluster mode, so that one budget holds across
// every instance of a service, Java and Go alike.
//
// It judges requests as Sentinel's server does (ClusterFlowChecker): per
// flowId, the passes of the last interval against the rule's threshold
// (Count for GLOBAL, Count times the clients connected in the rule's
// namespace for AVG_LOCAL, times FlowConfig.ExceedCount), prioritized calls
// borrowing from the next bucket (SHOULD_WAIT), and each namespace's token
// requests capped at FlowConfig.MaxAllowedQps (TOO_MANY_REQUEST). A client
// names its namespace in the PING it sends on connecting.
//
// Run it alone (cmd/sentinel-token-server) or embedded in a Go service:
// Server.TokenService answers the service's own calls in process.
package tokenserver

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/internal/tokenwire"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// DefaultPort is the port Sentinel's token server listens on.
const DefaultPort = 18730

// writeTimeout bounds a write of answers to a client that does not read
// them.
const writeTimeout = 5 * time.Second

// DefaultIdleTimeout is how long a connection may send nothing before the
// server closes it (Sentinel's idleSeconds).
const DefaultIdleTimeout = 600 * time.Second

// Config configures a Server; the zero value of a field means its default.
type Config struct {
	// IdleTimeout closes a connection that sent nothing for that long.
	IdleTimeout time.Duration
	// Flow is how budgets are judged.
	Flow FlowConfig
	// Namespaces are the namespaces served besides DefaultNamespace.
	Namespaces []string
	// Logger receives connection errors and malformed frames; nil means
	// slog.Default().
	Logger *slog.Logger
	// Now is the clock (nil means time.Now); tests pass their own.
	Now func() time.Time
}

// Server is a token server. Create it with New, load rules with
// LoadFlowRules, and serve connections with Serve or ListenAndServe.
type Server struct {
	cfg  Config
	flow atomic.Pointer[FlowConfig]
	log  *slog.Logger
	now  func() time.Time

	budgets      atomic.Pointer[map[int64]*budget]      // by flowId, replaced whole
	paramBudgets atomic.Pointer[map[int64]*paramBudget] // by flowId, replaced whole

	mu         sync.Mutex
	namespaces map[string]*namespace
	rules      map[string][]runtime.FlowRule
	listeners  map[net.Listener]struct{}
	conns      map[*conn]struct{}
	closed     bool
	wg         sync.WaitGroup
}

// New returns a server with no rules.
func New(cfg Config) (*Server, error) {
	if err := cfg.Flow.Validate(); err != nil {
		return nil, fmt.Errorf("tokenserver: %w", err)
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	s := &Server{cfg: cfg, log: cfg.Logger, now: cfg.Now,
		namespaces: map[string]*namespace{}, rules: map[string][]runtime.FlowRule{},
		listeners: map[net.Listener]struct{}{}, conns: map[*conn]struct{}{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	flow := cfg.Flow.WithDefaults()
	s.flow.Store(&flow)
	empty := map[int64]*budget{}
	s.budgets.Store(&empty)
	emptyParams := map[int64]*paramBudget{}
	s.paramBudgets.Store(&emptyParams)
	s.namespaceLocked(DefaultNamespace)
	for _, ns := range cfg.Namespaces {
		if ns != "" {
			s.namespaceLocked(ns)
		}
	}
	return s, nil
}

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = errors.New("tokenserver: server closed")

// ListenAndServe listens on addr (":18730" when empty) and serves.
func (s *Server) ListenAndServe(addr string) error {
	if addr == "" {
		addr = fmt.Sprintf(":%d", DefaultPort)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("tokenserver: %w", err)
	}
	return s.Serve(l)
}

// Serve accepts connections on l until Close, and closes l.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return ErrServerClosed
	}
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	defer l.Close()
	for {
		nc, err := l.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			return fmt.Errorf("tokenserver: %w", err)
		}
		c := &conn{s: s, nc: nc, addr: nc.RemoteAddr().String()}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return ErrServerClosed
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go c.serve()
	}
}

// Close stops every listener and connection and waits for them.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for l := range s.listeners {
		l.Close()
	}
	for c := range s.conns {
		c.nc.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// nowMs is the server's clock in milliseconds.
func (s *Server) nowMs() int64 { return s.now().UnixMilli() }

// RequestToken decides one call of the rule flowID: the answer a client
// would get over the wire, with the budget left after an OK.
func (s *Server) RequestToken(flowID int64, acquire int32, prioritized bool) (res runtime.TokenResult, remaining int32) {
	if flowID <= 0 || acquire <= 0 {
		return runtime.TokenResult{Status: runtime.TokenBadRequest}, 0
	}
	b, ok := (*s.budgets.Load())[flowID]
	if !ok {
		return runtime.TokenResult{Status: runtime.TokenNoRuleExists}, 0
	}
	now := s.nowMs()
	flow := s.flow.Load()
	if !b.namespace.allow(now, flow.MaxAllowedQps) {
		return runtime.TokenResult{Status: runtime.TokenTooManyRequest}, 0
	}
	status, remaining, wait := b.acquire(now, int64(acquire), prioritized, flow)
	return runtime.TokenResult{Status: status, WaitMs: int64(wait)}, remaining
}

// RequestParamToken decides one call of the hot-parameter rule flowID for
// the values params: the answer a client would get over the wire, with the
// budget left after an OK (-1 for several values).
func (s *Server) RequestParamToken(flowID int64, acquire int32, params []tokenwire.Param) (res runtime.TokenResult, remaining int32) {
	if flowID <= 0 || acquire <= 0 || len(params) == 0 {
		return runtime.TokenResult{Status: runtime.TokenBadRequest}, 0
	}
	b, ok := (*s.paramBudgets.Load())[flowID]
	if !ok {
		return runtime.TokenResult{Status: runtime.TokenNoRuleExists}, 0
	}
	now := s.nowMs()
	if !b.namespace.allow(now, s.flow.Load().MaxAllowedQps) {
		return runtime.TokenResult{Status: runtime.TokenTooManyRequest}, 0
	}
	status, remaining := b.acquire(now, int64(acquire), params)
	return runtime.TokenResult{Status: status}, remaining
}

// TokenService returns the server as the runtime's token service, for a
// service that embeds it: its own calls are decided in process.
func (s *Server) TokenService() runtime.TokenService { return embedded{s} }

// embedded is Server.TokenService.
type embedded struct{ s *Server }

func (e embedded) RequestToken(rule *runtime.FlowRule, acquire int64, prioritized bool) runtime.TokenResult {
	res, _ := e.s.RequestToken(rule.ClusterConfig.FlowID, int32(min(acquire, 1<<31-1)), prioritized)
	return res
}

// RequestParamToken decides a hot-parameter rule of the embedding service.
func (e embedded) RequestParamToken(rule *runtime.ParamFlowRule, acquire int64, arg runtime.ParamArg) runtime.TokenResult {
	params := make([]tokenwire.Param, 0, arg.Len())
	for i := range arg.Len() {
		params = append(params, tokenwire.FromValue(arg.Value(i)))
	}
	res, _ := e.s.RequestParamToken(rule.ClusterConfig.FlowID, int32(min(acquire, 1<<31-1)), params)
	return res
}

// conn is one client connection.
type conn struct {
	s    *Server
	nc   net.Conn
	addr string
	ns   *namespace // from the client's PING; nil before it
}

func (c *conn) serve() {
	defer c.s.wg.Done()
	defer c.close()
	in := bufio.NewReader(c.nc)
	// Answers are written to out and flushed once no request is left in
	// in's buffer: a client with many calls in flight gets their answers
	// in one write rather than one each.
	out := bufio.NewWriterSize(c.nc, 16<<10)
	buf := make([]byte, tokenwire.MaxPayload)
	var w tokenwire.Writer
	// The deadlines are moved on at most once a second: setting one costs a
	// timer update, and they are seconds (writes) and minutes (idleness)
	// away. They are checked before a read blocks and before a write, since
	// a read may have waited long.
	var deadlinesSet time.Time
	refresh := func() {
		if now := time.Now(); now.Sub(deadlinesSet) > time.Second {
			c.nc.SetReadDeadline(now.Add(c.s.cfg.IdleTimeout))
			c.nc.SetWriteDeadline(now.Add(writeTimeout))
			deadlinesSet = now
		}
	}
	for {
		refresh()
		payload, err := tokenwire.ReadFrame(in, buf)
		if err != nil {
			var ne net.Error
			switch {
			case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
			case errors.As(err, &ne) && ne.Timeout():
				c.s.log.Info("token server: closing an idle connection", "client", c.addr, "idle", c.s.cfg.IdleTimeout)
			default:
				c.s.log.Warn("token server: closing a connection", "client", c.addr, "err", err)
			}
			return
		}
		req, err := tokenwire.ParseRequest(payload)
		if err != nil {
			// A frame that does not parse leaves nothing to answer: the
			// stream may be out of step, so the connection goes.
			c.s.log.Warn("token server: malformed request, closing the connection", "client", c.addr, "err", err)
			return
		}
		frame, err := c.answer(&w, req)
		if err != nil {
			c.s.log.Warn("token server: cannot answer", "client", c.addr, "err", err)
			return
		}
		if frame != nil {
			out.Write(frame) // an error shows in Flush
		}
		if in.Buffered() > 0 || out.Buffered() == 0 {
			continue
		}
		refresh()
		if err := out.Flush(); err != nil {
			c.s.log.Warn("token server: writing to a client", "client", c.addr, "err", err)
			return
		}
	}
}

// answer returns the response frame of req, nil for a request that gets
// none.
func (c *conn) answer(w *tokenwire.Writer, req tokenwire.Request) ([]byte, error) {
	switch req.Type {
	case tokenwire.TypePing:
		if req.Namespace == "" {
			return w.WritePingResponse(req.XID, false, 0)
		}
		if c.ns == nil || c.ns.name != req.Namespace {
			if c.ns != nil {
				c.ns.leave(c.addr)
			}
			c.s.mu.Lock()
			c.ns = c.s.namespaceLocked(req.Namespace)
			c.s.mu.Unlock()
			c.ns.join(c.addr)
		}
		return w.WritePingResponse(req.XID, true, int32(c.ns.connected()))
	case tokenwire.TypeFlow:
		res, remaining := c.s.RequestToken(req.FlowID, req.Acquire, req.Prioritized)
		return w.WriteTokenResponse(req.XID, tokenwire.TypeFlow, int8(res.Status), remaining, int32(res.WaitMs))
	case tokenwire.TypeParamFlow:
		res, remaining := c.s.RequestParamToken(req.FlowID, req.Acquire, req.Params)
		return w.WriteTokenResponse(req.XID, tokenwire.TypeParamFlow, int8(res.Status), remaining, 0)
	}
	return nil, nil // an unknown type is dropped, as Java's server drops it
}

func (c *conn) close() {
	c.nc.Close()
	if c.ns != nil {
		c.ns.leave(c.addr)
	}
	c.s.mu.Lock()
	delete(c.s.conns, c)
	c.s.mu.Unlock()
}
