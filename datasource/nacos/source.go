package nacos

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nacos-group/nacos-sdk-go/v2/clients"
	"github.com/nacos-group/nacos-sdk-go/v2/clients/cache"
	"github.com/nacos-group/nacos-sdk-go/v2/clients/config_client"
	"github.com/nacos-group/nacos-sdk-go/v2/common/constant"
	"github.com/nacos-group/nacos-sdk-go/v2/util"
	"github.com/nacos-group/nacos-sdk-go/v2/vo"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Source reads rule documents from Nacos, one dataId per rule kind, and
// writes rule sets back. It implements datasource.Source and
// datasource.WritableSource. A Source runs one Watch at a time; Write may be
// called while it runs. Close releases the SDK's client.
type Source struct {
	client config_client.IConfigClient
	cfg    Config
	// grpcAddrs are the servers' gRPC addresses, host:port.
	grpcAddrs []string
	// kinds are the kinds read, each with its dataId, in SupportedKinds order.
	kinds []kindID
	// snapshotDir is where the SDK keeps its snapshot of each dataId read.
	snapshotDir string
	// api reads through Nacos's HTTP API, for the probe and after an
	// outage.
	api *httpAPI

	watching atomic.Bool
	// writeMu orders Writes, so each one builds on the one before.
	writeMu sync.Mutex
	// mu guards base.
	mu sync.Mutex
	// base holds the content of each dataId as last read or written (""
	// for a missing one): what Write compares against.
	base map[string]string
}

// kindID is a rule kind and the dataId that holds it.
type kindID struct {
	kind   rules.Kind
	dataID string
}

// NewSource returns a source for the dataIds cfg names, with its own Nacos
// client. It does not contact Nacos: the first Watch or Write does.
func NewSource(cfg Config) (*Source, error) {
	cfg = cfg.withDefaults()
	if len(cfg.ServerAddrs) == 0 {
		return nil, errors.New("nacos: Config.ServerAddrs is empty")
	}
	var kinds []kindID
	for _, k := range cfg.Kinds {
		if !slices.Contains(SupportedKinds(), k) {
			return nil, fmt.Errorf("nacos: rule kind %q is not kept in Nacos (want one of %v)", k, SupportedKinds())
		}
		id, ok := cfg.DataIDs[k]
		if !ok {
			if cfg.App == "" {
				return nil, fmt.Errorf("nacos: no dataId for %s rules: set Config.App or Config.DataIDs", k)
			}
			id = DefaultDataID(cfg.App, k)
		}
		if id != "" {
			kinds = append(kinds, kindID{kind: k, dataID: id})
		}
	}
	if len(kinds) == 0 {
		return nil, errors.New("nacos: no dataId to read")
	}
	servers := make([]constant.ServerConfig, 0, len(cfg.ServerAddrs))
	var grpcAddrs []string
	for _, addr := range cfg.ServerAddrs {
		sc, err := serverConfig(addr)
		if err != nil {
			return nil, err
		}
		servers = append(servers, sc)
		grpcAddrs = append(grpcAddrs, net.JoinHostPort(sc.IpAddr, strconv.FormatUint(sc.Port+grpcOffset, 10)))
	}
	tmp := filepath.Join(os.TempDir(), "sentinelgen-nacos")
	cacheDir, logDir := cfg.CacheDir, cfg.LogDir
	if cacheDir == "" {
		cacheDir = filepath.Join(tmp, "cache")
	}
	if logDir == "" {
		logDir = filepath.Join(tmp, "log")
	}
	cc := constant.ClientConfig{
		NamespaceId:         cfg.Namespace,
		TimeoutMs:           uint64(cfg.Timeout.Milliseconds()),
		NotLoadCacheAtStart: true,
		// The source falls back on the snapshot itself (readOrSnapshot),
		// so that it knows when Nacos did not answer.
		DisableUseSnapShot: true,
		CacheDir:           cacheDir,
		LogDir:             logDir,
		LogLevel:           cfg.LogLevel,
		Username:           cfg.Username,
		Password:           cfg.Password,
	}
	client, err := clients.NewConfigClient(vo.NacosClientParam{ClientConfig: &cc, ServerConfigs: servers})
	if err != nil {
		return nil, fmt.Errorf("nacos: creating the client for %v: %w", cfg.ServerAddrs, err)
	}
	return &Source{client: client, cfg: cfg, grpcAddrs: grpcAddrs, kinds: kinds, base: map[string]string{},
		snapshotDir: filepath.Join(cacheDir, "config"), api: newHTTPAPI(cfg, servers)}, nil
}

// grpcOffset is how far above a server's HTTP port the SDK finds its gRPC
// port.
const grpcOffset = 1000

// serverConfig parses "host:port" or "http://host:port/context".
func serverConfig(addr string) (constant.ServerConfig, error) {
	sc := constant.ServerConfig{Scheme: "http", ContextPath: "/nacos"}
	hostPort := addr
	if strings.Contains(addr, "://") {
		u, err := url.Parse(addr)
		if err != nil {
			return sc, fmt.Errorf("nacos: server address %q: %w", addr, err)
		}
		sc.Scheme, hostPort = u.Scheme, u.Host
		if u.Path != "" && u.Path != "/" {
			sc.ContextPath = strings.TrimSuffix(u.Path, "/")
		}
	}
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return sc, fmt.Errorf("nacos: server address %q: want host:port: %w", addr, err)
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return sc, fmt.Errorf("nacos: server address %q: bad port: %w", addr, err)
	}
	sc.IpAddr, sc.Port = host, p
	return sc, nil
}

// String names the source in logs and errors: "nacos:SENTINEL_GROUP/orders-*".
func (s *Source) String() string {
	ns := ""
	if s.cfg.Namespace != "" {
		ns = s.cfg.Namespace + "/"
	}
	if s.cfg.App != "" {
		return "nacos:" + ns + s.cfg.Group + "/" + s.cfg.App + "-*"
	}
	return "nacos:" + ns + s.cfg.Group
}

// DataID returns the dataId the source reads the rules of kind from; "" when
// it does not read that kind.
func (s *Source) DataID(kind rules.Kind) string {
	for _, k := range s.kinds {
		if k.kind == kind {
			return k.dataID
		}
	}
	return ""
}

// Close stops the SDK's client. Call it after the Watch has stopped.
func (s *Source) Close() { s.client.CloseClient() }

// docName is the Document name of a dataId: positions in errors then read
// "nacos:SENTINEL_GROUP/orders-flow-rules: [0].count".
func (s *Source) docName(dataID string) string { return "nacos:" + s.cfg.Group + "/" + dataID }

// document is the rule document a dataId's content is: Sentinel's JSON of
// one kind.
func (s *Source) document(k kindID, content string) rules.Document {
	return rules.Document{Name: s.docName(k.dataID), Data: []byte(content), Format: rules.FormatJSON, Kind: k.kind}
}

// read fetches one dataId from Nacos; "" when it does not exist. Refusals
// that pass are waited out within Config.Timeout: more than a few reads of
// one dataId a second in a process ("ConfigQueryRequest is limited"), and a
// read while the SDK's connection is not up yet ("client not connected") or
// not yet registered by a server that just started ("Connection is
// unregistered"), which the SDK gives up after a few hundred milliseconds,
// before a new client or one reconnecting on a busy machine has connected.
func (s *Source) read(dataID string) (string, error) {
	deadline := time.Now().Add(s.cfg.Timeout)
	for {
		content, err := s.client.GetConfig(vo.ConfigParam{DataId: dataID, Group: s.cfg.Group})
		if err == nil {
			return content, nil
		}
		msg := err.Error()
		waiting := strings.Contains(msg, "is limited") || strings.Contains(msg, "client not connected") ||
			strings.Contains(msg, "Connection is unregistered")
		if !waiting || time.Now().After(deadline) {
			return "", fmt.Errorf("%v: reading dataId %s from %s: %w", s, dataID, strings.Join(s.cfg.ServerAddrs, ", "), err)
		}
		time.Sleep(limitedWait)
	}
}

// readOrSnapshot is read, falling back with Config.StartFromSnapshot on the
// snapshot the SDK wrote when it last read the dataId. When the snapshot
// answers, unreachable is Nacos's error and err is nil. Without a snapshot
// err wraps errNoSnapshot.
func (s *Source) readOrSnapshot(dataID string) (content string, unreachable, err error) {
	content, err = s.read(dataID)
	if err == nil || !s.cfg.StartFromSnapshot {
		return content, nil, err
	}
	key := util.GetConfigCacheKey(dataID, s.cfg.Group, s.cfg.Namespace)
	c, serr := cache.ReadConfigFromFile(key, s.snapshotDir)
	if serr != nil {
		return "", err, fmt.Errorf("%w: %w: %v", err, errNoSnapshot, serr)
	}
	return c, err, nil
}

// errNoSnapshot marks a read that reached neither Nacos nor a snapshot of
// the dataId: the SDK keeps none for a dataId it never read.
var errNoSnapshot = errors.New("Nacos unreachable and no local snapshot of the dataId")

// limitedWait is the pause before reading again a dataId the SDK refused
// (see read).
const limitedWait = 100 * time.Millisecond
