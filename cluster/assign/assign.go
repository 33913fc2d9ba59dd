// Package assign lets Sentinel's dashboard assign a Go service a part in
// cluster flow control from its cluster page (集群流控), as it assigns Java
// services: a token client of some token server, or an embedded token server
// that serves the application's other instances (Java or Go) and decides
// its own calls in process. A Controller is the transport.ClusterControl the
// command center serves:
//
//	ctl := assign.New(assign.Config{App: "orders"})
//	defer ctl.Close()
//	srv, err := transport.Start(transport.Config{App: "orders", Cluster: ctl, ...})
//
// It may also be driven from code (SetMode, SetClientConfig, ...), as the
// example's -token-server and -serve-tokens flags do. The embedded server's
// budgets are the service's own flow and hot-parameter rules in cluster
// mode, kept in step with the rules in force, in the namespace of the
// application's name.
package assign

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

// Config configures a Controller.
type Config struct {
	// App is the application's name: the namespace the client announces and
	// the embedded server keeps the service's rules in. Required.
	App string
	// ServerHost is the address the embedded server binds ("" means every
	// interface, as Sentinel's server does; "127.0.0.1" keeps it local).
	ServerHost string
	// Logger receives mode changes; nil means slog.Default().
	Logger *slog.Logger
}

// Controller holds the service's part in cluster flow control and switches
// it. It is safe for concurrent use.
type Controller struct {
	cfg Config
	log *slog.Logger

	mu           sync.Mutex
	mode         int
	lastModified int64
	client       *tokenclient.Client
	clientCfg    transport.ClusterClientConfig
	server       *tokenserver.Server
	serverDone   chan struct{}
	stopRules    func()
	transport    transport.ClusterTransportConfig
	namespaces   []string
	flow         tokenserver.FlowConfig
}

// New returns a Controller in mode ClusterModeNotStarted.
func New(cfg Config) (*Controller, error) {
	if cfg.App == "" {
		return nil, errors.New("assign: Config.App is empty")
	}
	c := &Controller{cfg: cfg, log: cfg.Logger, mode: transport.ClusterModeNotStarted, lastModified: -1,
		clientCfg:  transport.ClusterClientConfig{RequestTimeout: int(tokenclient.DefaultRequestTimeout / time.Millisecond)},
		transport:  transport.ClusterTransportConfig{Port: tokenserver.DefaultPort, IdleSeconds: int(tokenserver.DefaultIdleTimeout / time.Second)},
		namespaces: []string{tokenserver.DefaultNamespace, cfg.App}}
	if c.log == nil {
		c.log = slog.Default()
	}
	return c, nil
}

// Close stops the client or server and uninstalls the token service.
func (c *Controller) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopClientLocked()
	c.stopServerLocked()
	return nil
}

// State implements transport.ClusterControl.
func (c *Controller) State() transport.ClusterState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return transport.ClusterState{Mode: c.mode, LastModified: c.lastModified,
		ClientAvailable: c.client != nil, ServerAvailable: c.server != nil}
}

// SetMode implements transport.ClusterControl: the service becomes a token
// client (of the server SetClientConfig names, once it names one) or an
// embedded token server on the configured port.
func (c *Controller) SetMode(mode int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch mode {
	case transport.ClusterModeClient:
		c.stopServerLocked()
		if err := c.startClientLocked(); err != nil {
			return err
		}
	case transport.ClusterModeServer:
		c.stopClientLocked()
		if err := c.startServerLocked(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("assign: unknown cluster mode %d", mode)
	}
	c.mode, c.lastModified = mode, time.Now().UnixMilli()
	return nil
}

// ClientConfig implements transport.ClusterControl.
func (c *Controller) ClientConfig() transport.ClusterClientConfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg := c.clientCfg
	if c.client != nil {
		cfg.ClientState = 2
	}
	return cfg
}

// SetClientConfig implements transport.ClusterControl: a client running
// reconnects to the new server.
func (c *Controller) SetClientConfig(cfg transport.ClusterClientConfig) error {
	if cfg.ServerHost == "" || cfg.ServerPort <= 0 || cfg.ServerPort > 65535 {
		return fmt.Errorf("assign: token server %q port %d: want a host and a port", cfg.ServerHost, cfg.ServerPort)
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = int(tokenclient.DefaultRequestTimeout / time.Millisecond)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg.ClientState = 0
	c.clientCfg = cfg
	if c.mode == transport.ClusterModeClient {
		c.stopClientLocked()
		return c.startClientLocked()
	}
	return nil
}

func (c *Controller) startClientLocked() error {
	if c.clientCfg.ServerHost == "" {
		// Sentinel's dashboard sets the mode first, then the server.
		return nil
	}
	cl, err := tokenclient.New(tokenclient.Config{
		Addr:           net.JoinHostPort(c.clientCfg.ServerHost, strconv.Itoa(c.clientCfg.ServerPort)),
		Namespace:      c.cfg.App,
		RequestTimeout: time.Duration(c.clientCfg.RequestTimeout) * time.Millisecond,
		Logger:         c.log,
	})
	if err != nil {
		return err
	}
	c.client = cl
	runtime.SetTokenService(cl)
	c.log.Info("cluster: token client", "server", net.JoinHostPort(c.clientCfg.ServerHost, strconv.Itoa(c.clientCfg.ServerPort)), "namespace", c.cfg.App)
	return nil
}

func (c *Controller) stopClientLocked() {
	if c.client == nil {
		return
	}
	runtime.SetTokenService(nil)
	c.client.Close()
	c.client = nil
}

func (c *Controller) startServerLocked() error {
	srv, err := tokenserver.New(tokenserver.Config{IdleTimeout: time.Duration(c.transport.IdleSeconds) * time.Second,
		Namespaces: c.namespaces, Flow: c.flow, Logger: c.log})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(c.cfg.ServerHost, strconv.Itoa(c.transport.Port)))
	if err != nil {
		return fmt.Errorf("assign: token server: %w", err)
	}
	done := make(chan struct{})
	go func() { srv.Serve(l); close(done) }()
	stopFlow := runtime.OnFlowRulesChange(func(rules []runtime.FlowRule) {
		if err := srv.LoadFlowRules(c.cfg.App, rules); err != nil {
			c.log.Error("cluster: the embedded token server refused the service's cluster flow rules", "err", err)
		}
	})
	stopParam := runtime.OnParamFlowRulesChange(func(rules []runtime.ParamFlowRule) {
		if err := srv.LoadParamFlowRules(c.cfg.App, rules); err != nil {
			c.log.Error("cluster: the embedded token server refused the service's cluster hot-parameter rules", "err", err)
		}
	})
	c.stopRules = func() { stopFlow(); stopParam() }
	c.server, c.serverDone = srv, done
	runtime.SetTokenService(srv.TokenService())
	c.log.Info("cluster: embedded token server", "listen", l.Addr().String(), "namespaces", c.namespaces)
	return nil
}

func (c *Controller) stopServerLocked() {
	if c.server == nil {
		return
	}
	runtime.SetTokenService(nil)
	c.stopRules()
	c.server.Close()
	<-c.serverDone
	c.server, c.serverDone, c.stopRules = nil, nil, nil
}

// ServerConfig implements transport.ClusterControl.
func (c *Controller) ServerConfig() transport.ClusterServerConfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	return transport.ClusterServerConfig{Transport: c.transport, Flow: flowJSON(c.flow), NamespaceSet: c.namespaceSetLocked()}
}

func (c *Controller) namespaceSetLocked() []string {
	if c.server != nil {
		return c.server.Namespaces()
	}
	out := append([]string(nil), c.namespaces...)
	sort.Strings(out)
	return out
}

// flowJSON is cfg with its defaults, as the dashboard shows it.
func flowJSON(cfg tokenserver.FlowConfig) transport.ClusterFlowConfig {
	d := cfg.WithDefaults()
	return transport.ClusterFlowConfig{ExceedCount: d.ExceedCount, MaxOccupyRatio: d.MaxOccupyRatio,
		IntervalMs: d.IntervalMs, SampleCount: d.SampleCount, MaxAllowedQps: d.MaxAllowedQps}
}

// ServerInfo implements transport.ClusterControl.
func (c *Controller) ServerInfo() transport.ClusterServerInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	info := transport.ClusterServerInfo{Port: c.transport.Port, Transport: c.transport, Flow: flowJSON(c.flow),
		NamespaceSet: c.namespaceSetLocked(), Embedded: true, AppName: c.cfg.App,
		Connection: []transport.ClusterConnectionGroup{}, RequestLimitData: []transport.ClusterRequestLimit{}}
	if c.server == nil {
		return info
	}
	for _, ns := range info.NamespaceSet {
		group := transport.ClusterConnectionGroup{Namespace: ns, ConnectionSet: []transport.ClusterConnection{}}
		for _, addr := range c.server.Clients(ns) {
			host, _, _ := net.SplitHostPort(addr)
			group.ConnectionSet = append(group.ConnectionSet, transport.ClusterConnection{Address: addr, Host: host})
		}
		group.ConnectedCount = len(group.ConnectionSet)
		info.Connection = append(info.Connection, group)
		info.RequestLimitData = append(info.RequestLimitData, transport.ClusterRequestLimit{Namespace: ns,
			CurrentQps: c.server.RequestQPS(ns), MaxAllowedQps: flowJSON(c.flow).MaxAllowedQps})
	}
	return info
}

// SetServerTransport implements transport.ClusterControl: a server running
// moves to the new port.
func (c *Controller) SetServerTransport(port, idleSeconds int) error {
	if port <= 0 || port > 65535 || idleSeconds <= 0 {
		return fmt.Errorf("assign: port %d, idleSeconds %d: want a port and a positive idle time", port, idleSeconds)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.transport
	c.transport = transport.ClusterTransportConfig{Port: port, IdleSeconds: idleSeconds}
	if c.server == nil || old == c.transport {
		return nil
	}
	c.stopServerLocked()
	if err := c.startServerLocked(); err != nil {
		c.transport = old
		if again := c.startServerLocked(); again != nil {
			c.mode = transport.ClusterModeNotStarted
		}
		return err
	}
	return nil
}

// SetServerNamespaces implements transport.ClusterControl; the default
// namespace and the application's are always served.
func (c *Controller) SetServerNamespaces(set []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ns := map[string]bool{tokenserver.DefaultNamespace: true, c.cfg.App: true}
	for _, n := range set {
		if n != "" {
			ns[n] = true
		}
	}
	c.namespaces = c.namespaces[:0]
	for n := range ns {
		c.namespaces = append(c.namespaces, n)
	}
	sort.Strings(c.namespaces)
	if c.server != nil {
		c.server.AddNamespaces(c.namespaces...)
	}
	return nil
}

// SetServerFlow implements transport.ClusterControl.
func (c *Controller) SetServerFlow(cfg transport.ClusterFlowConfig) error {
	flow := tokenserver.FlowConfig{ExceedCount: cfg.ExceedCount, MaxOccupyRatio: cfg.MaxOccupyRatio,
		IntervalMs: cfg.IntervalMs, SampleCount: cfg.SampleCount, MaxAllowedQps: cfg.MaxAllowedQps}
	if err := flow.Validate(); err != nil {
		return fmt.Errorf("assign: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flow = flow
	if c.server != nil {
		c.server.SetFlowConfig(flow)
	}
	return nil
}

// ServerMetrics implements transport.ClusterControl.
func (c *Controller) ServerMetrics(ns string) []transport.ClusterFlowMetric {
	c.mu.Lock()
	srv := c.server
	c.mu.Unlock()
	if srv == nil {
		return nil
	}
	var out []transport.ClusterFlowMetric
	now := time.Now().UnixMilli()
	for _, m := range srv.Metrics(ns) {
		out = append(out, transport.ClusterFlowMetric{Timestamp: now, ResourceName: m.Resource, FlowID: m.FlowID,
			PassQps: m.PassQps, BlockQps: m.BlockQps})
	}
	return out
}
