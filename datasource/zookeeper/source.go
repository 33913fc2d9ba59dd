package zookeeper

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Source reads rule documents from ZooKeeper, one node per rule kind, and
// writes rule sets back. It implements datasource.Source and
// datasource.WritableSource. A Source runs one Watch at a time; Write may be
// called while it runs. Close ends its session.
type Source struct {
	cfg Config
	// kinds are the kinds read, each with its node, in SupportedKinds order.
	kinds []kindPath

	// connMu guards conn, made by the first Watch or Write.
	connMu sync.Mutex
	conn   *zk.Conn
	// sessions receives the client's session states (see onEvent); the
	// running Watch takes them.
	sessions chan zk.State

	watching atomic.Bool
	// writeMu orders Writes, so each one builds on the one before.
	writeMu sync.Mutex
	// mu guards base.
	mu sync.Mutex
	// base holds each node as last read or written: what Write's
	// compare-and-swap compares against.
	base map[string]node
}

// kindPath is a rule kind and the node that holds it.
type kindPath struct {
	kind rules.Kind
	path string
}

// node is a node's content and version as read; exists is false for a node
// that is not there.
type node struct {
	data    string
	version int32
	exists  bool
}

// NewSource returns a source for the nodes cfg names. It does not contact
// ZooKeeper: the first Watch or Write does.
func NewSource(cfg Config) (*Source, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Servers) == 0 {
		return nil, errors.New("zookeeper: Config.Servers is empty")
	}
	var kinds []kindPath
	for _, k := range cfg.Kinds {
		if !slices.Contains(SupportedKinds(), k) {
			return nil, fmt.Errorf("zookeeper: rule kind %q is not kept in ZooKeeper (want one of %v)", k, SupportedKinds())
		}
		p, ok := cfg.Paths[k]
		if !ok {
			if cfg.App == "" {
				return nil, fmt.Errorf("zookeeper: no node for %s rules: set Config.App or Config.Paths", k)
			}
			p = DefaultPath(cfg.Root, cfg.App, k)
		}
		if p == "" {
			continue
		}
		if !strings.HasPrefix(p, "/") || (len(p) > 1 && strings.HasSuffix(p, "/")) {
			return nil, fmt.Errorf("zookeeper: node %q for %s rules: want an absolute path without a trailing slash", p, k)
		}
		kinds = append(kinds, kindPath{kind: k, path: p})
	}
	if len(kinds) == 0 {
		return nil, errors.New("zookeeper: no node to read")
	}
	return &Source{cfg: cfg, kinds: kinds, sessions: make(chan zk.State, 16), base: map[string]node{}}, nil
}

// String names the source in logs and errors:
// "zookeeper:/sentinel_rule_config/orders*".
func (s *Source) String() string {
	if s.cfg.App != "" {
		return "zookeeper:" + DefaultPath(s.cfg.Root, s.cfg.App, rules.KindFlow) + "*"
	}
	return "zookeeper:" + strings.Join(s.cfg.Servers, ",")
}

// Path returns the node the source reads the rules of kind from; "" when it
// does not read that kind.
func (s *Source) Path(kind rules.Kind) string {
	for _, k := range s.kinds {
		if k.kind == kind {
			return k.path
		}
	}
	return ""
}

// Close ends the source's session with ZooKeeper. Call it after the Watch
// has stopped.
func (s *Source) Close() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

// client returns the source's ZooKeeper client, making it on first use; it
// connects in the background and reconnects by itself.
func (s *Source) client() (*zk.Conn, error) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.conn != nil {
		return s.conn, nil
	}
	c, _, err := zk.Connect(s.cfg.Servers, s.cfg.SessionTimeout,
		zk.WithLogger(clientLogger{s.cfg.Logger}), zk.WithLogInfo(false), zk.WithEventCallback(s.onEvent))
	if err != nil {
		return nil, fmt.Errorf("zookeeper: connecting to %v: %w", s.cfg.Servers, err)
	}
	s.conn = c
	return c, nil
}

// onEvent is the client's event callback: it hands session states to the
// running Watch without ever blocking the client.
func (s *Source) onEvent(ev zk.Event) {
	if ev.Type != zk.EventSession {
		return
	}
	select {
	case s.sessions <- ev.State:
	default:
	}
}

// session waits until c has a session, for up to Config.Timeout.
func (s *Source) session(ctx context.Context, c *zk.Conn) error {
	deadline := time.Now().Add(s.cfg.Timeout)
	for c.State() != zk.StateHasSession {
		if time.Now().After(deadline) {
			return fmt.Errorf("%v: no session with ZooKeeper %v within %v (state %v)", s, s.cfg.Servers, s.cfg.Timeout, c.State())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// docName is the Document name of a node: positions in errors then read
// "zookeeper:/sentinel_rule_config/orders: [0].count".
func docName(path string) string { return "zookeeper:" + path }

// document is the rule document a node's content is: Sentinel's JSON of
// one kind.
func document(k kindPath, content string) rules.Document {
	return rules.Document{Name: docName(k.path), Data: []byte(content), Format: rules.FormatJSON, Kind: k.kind}
}

// get reads path without a watch.
func (s *Source) get(c *zk.Conn, path string) (node, error) {
	data, stat, err := c.Get(path)
	if errors.Is(err, zk.ErrNoNode) {
		return node{version: -1}, nil
	}
	if err != nil {
		return node{}, fmt.Errorf("%v: reading node %s: %w", s, path, err)
	}
	return node{data: string(data), version: stat.Version, exists: true}, nil
}

func (s *Source) baseOf(path string) (node, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.base[path]
	return n, ok
}

func (s *Source) setBase(path string, n node) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.base[path] = n
}

// clientLogger hands the client's log to the source's logger at debug
// level: its reconnection attempts are reported through the Watch.
type clientLogger struct{ l *slog.Logger }

func (c clientLogger) Printf(format string, args ...any) {
	c.l.Debug("zookeeper client: " + fmt.Sprintf(format, args...))
}
