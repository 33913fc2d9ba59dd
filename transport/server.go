package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/metrics"
)

// DefaultListen is the command center's default address: Sentinel's port
// 8719, on loopback only.
const DefaultListen = "127.0.0.1:8719"

// Version is what the service reports as its Sentinel version (the
// heartbeat's v, the version command). The dashboard reads major.minor.fix
// and ignores the part after '-'; 1.8.9 makes it use form-encoded POSTs with
// a charset for rule pushes, as it does with Java clients of that version.
const Version = "1.8.9-sentinelgen"

// Config configures Start.
type Config struct {
	// App is the application name the dashboard groups machines by
	// (Sentinel's project.name). Empty means the executable's name.
	App string
	// Listen is the command center's address (DefaultListen when empty).
	// Use port 0 for any free port; Server.Addr tells which.
	Listen string
	// Dashboard is the dashboard's host:port for heartbeats; none are sent
	// when it is empty.
	Dashboard string
	// ReadOnly refuses rules pushed by the dashboard (setRules,
	// setParamFlowRules) with a non-2xx answer saying so: the dashboard is
	// then a read-only board and rules change through the data source.
	ReadOnly bool
	// Writer, when set, persists every kind of rule in force (the gateway's
	// too) after each push, so a pushed change survives a restart. A push
	// whose write fails is taken back (the pushed kind's rules before it
	// are put in force again) and refused with 500 and the writer's error,
	// so a push is never in force on this machine alone.
	Writer datasource.WritableSource
	// Sampler supplies the per-second statistics. When nil, Start creates
	// one and starts it, and Close stops it.
	Sampler *metrics.Sampler
	// HeartbeatInterval is the time between heartbeats (10 s when 0).
	HeartbeatInterval time.Duration
	// HeartbeatIP is the IPv4 address announced to the dashboard, which it
	// calls back on. Empty means the listen address's host when that is a
	// specific IPv4 address, else the first non-loopback IPv4 address of
	// the machine.
	HeartbeatIP string
	// Hostname is announced with the heartbeat (os.Hostname when empty).
	Hostname string
	// AppType is Sentinel's app_type: 0 for a normal service (the default),
	// AppTypeGateway (1) for an API gateway built with package gateway:
	// the dashboard then shows its gateway pages, and the command center
	// serves the gateway commands (gateway/getRules, gateway/updateRules,
	// gateway/getApiDefinitions, gateway/updateApiDefinitions) over the
	// gateway package's rules and API definitions. The dashboard also
	// treats 11 and 12 (Java's Spring Cloud Gateway and Zuul) as gateways,
	// and so does the command center.
	AppType int
	// ClusterAvailable, when set, tells getClusterMode whether the installed
	// token service can currently answer (for cluster/redis:
	// func() bool { return svc.Stats().Available }).
	ClusterAvailable func() bool
	// Cluster, when set, serves the dashboard's cluster commands
	// (setClusterMode, cluster/client/*, cluster/server/*) so that its
	// cluster page can assign this service as a token client or server;
	// see ClusterControl.
	Cluster ClusterControl
	// Logger receives the command center's and heartbeat's notes
	// (slog.Default when nil).
	Logger *slog.Logger

	// WriteClients are the client addresses allowed to send the commands
	// that change the rules (setRules, setParamFlowRules and the gateway's
	// updates): IP addresses, CIDR prefixes ("10.0.0.0/8") or host names,
	// resolved at Start. nil means loopback plus the Dashboard's host;
	// an empty, non-nil slice allows no one. Reads are not restricted.
	// Behind a proxy (Handler mounted elsewhere) the caller is the proxy.
	WriteClients []string
	// AllowedHosts are further names the Host header may carry, besides
	// loopback names, the listen address, the heartbeat address, Hostname
	// and the machine's own addresses: e.g. a DNS name the dashboard is
	// told. Any other Host is refused, which defeats DNS rebinding.
	AllowedHosts []string
	// MaxPushRules is the most rules one push may carry
	// (DefaultMaxPushRules when 0); a larger push is refused whole.
	MaxPushRules int
	// MaxBodyBytes is the largest request body read (16 MiB when 0).
	MaxBodyBytes int64
	// ReadTimeout bounds the reading of a whole request, body included
	// (10 s when 0); WriteTimeout bounds the time from the request's end
	// to the answer's end (30 s when 0); IdleTimeout is how long a
	// keep-alive connection may wait for its next request (15 s when 0).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxConns caps the connections held open at once (when 0: half the
	// process's file descriptor limit, at most 1024); MaxConnsPerClient
	// caps them per client address (MaxConns/2 when 0). A connection over
	// a cap displaces the one of the same client, or else of the client
	// holding the most, that has waited longest without sending a whole
	// request; see docs/dashboard.md.
	MaxConns, MaxConnsPerClient int
}

// DefaultMaxPushRules is Config.MaxPushRules's default: far more rules of
// one kind than a dashboard page can show, few enough that a push is
// merged and checked quickly.
const DefaultMaxPushRules = 20000

// Server is a running command center and heartbeat; Close stops both.
type Server struct {
	cfg      Config
	ln       net.Listener
	conns    *connLimiter // ln with the connection caps, which the HTTP server serves
	http     *http.Server
	commands map[string]command
	names    []string // command names in registration order, for api
	log      *slog.Logger
	ownsSamp bool

	pushSem chan struct{} // one token: serialises rule pushes (read in force, merge, load, write); waiting ends with the client
	guard   guard

	refusalMu sync.Mutex
	refusals  PushRefusals

	clusterMu   sync.Mutex
	clusterSeen int64 // when a token service was first seen, for lastModified

	stopBeat chan struct{}
	beatDone chan struct{}
	closeMu  sync.Once
}

// Start listens on cfg.Listen, serves the dashboard's commands and, when
// cfg.Dashboard is set, sends heartbeats. It fails when the address is
// taken (it does not move to the next port as Java does: the dashboard is
// told the port, so a port that wanders would surprise whoever set it).
func Start(cfg Config) (*Server, error) {
	if cfg.App == "" {
		cfg.App = strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	}
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.HeartbeatInterval <= 0 {
		cfg.HeartbeatInterval = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Hostname == "" {
		cfg.Hostname, _ = os.Hostname()
	}
	setLimitDefaults(&cfg)
	if len(cfg.App) > 256 || len(cfg.Hostname) > 256 {
		return nil, errors.New("transport: App and Hostname must be at most 256 characters (the dashboard refuses longer)")
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("transport: command center: %w", err)
	}
	s := &Server{cfg: cfg, ln: ln, log: cfg.Logger, pushSem: make(chan struct{}, 1)}
	var ip string
	if cfg.Dashboard != "" {
		if ip, err = s.heartbeatIP(); err != nil {
			_ = ln.Close()
			return nil, err
		}
	}
	s.guard = s.newGuard(ip)
	if s.cfg.Sampler == nil {
		s.cfg.Sampler = metrics.New(metrics.Config{})
		s.cfg.Sampler.Start()
		s.ownsSamp = true
	}
	s.register()
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: min(cfg.ReadTimeout, 5*time.Second),
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       connContext,
		ConnState:         connState,
		ErrorLog:          slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	s.conns = newConnLimiter(ln, cfg.MaxConns, cfg.MaxConnsPerClient)
	go func() {
		if err := s.http.Serve(s.conns); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sentinel transport: command center stopped", "error", err)
		}
	}()
	if cfg.Dashboard != "" {
		s.stopBeat, s.beatDone = make(chan struct{}), make(chan struct{})
		go s.heartbeats(ip)
	}
	return s, nil
}

// Addr is the command center's listening address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Handler serves the command center's commands, for mounting them elsewhere
// (Sentinel's spring-mvc transport serves them on the application's port).
// Beware that setRules is unauthenticated: the Host, Origin, method and
// write allow-list checks apply, but the connection caps and timeouts are
// the mounting server's.
func (s *Server) Handler() http.Handler { return s }

// Close stops the heartbeat, the command center and, if Start created it,
// the sampler.
func (s *Server) Close() error {
	var err error
	s.closeMu.Do(func() {
		if s.stopBeat != nil {
			close(s.stopBeat)
			<-s.beatDone
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err = s.http.Shutdown(ctx)
		if s.ownsSamp {
			s.cfg.Sampler.Stop()
		}
	})
	return err
}

// setLimitDefaults fills the zero limits of cfg.
func setLimitDefaults(cfg *Config) {
	if cfg.MaxPushRules <= 0 {
		cfg.MaxPushRules = DefaultMaxPushRules
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 16 << 20
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 10 * time.Second
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 30 * time.Second
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 15 * time.Second
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = max(16, min(1024, fdLimit()/2))
	}
	if cfg.MaxConnsPerClient <= 0 {
		cfg.MaxConnsPerClient = max(1, cfg.MaxConns/2)
	}
}
