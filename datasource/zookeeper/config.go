package zookeeper

import (
	"log/slog"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// DefaultRoot is the parent node of the default rule nodes: the root of the
// Sentinel dashboard's ZooKeeper rule sample (ZookeeperConfigUtil).
const DefaultRoot = "/sentinel_rule_config"

// Config says where a Source finds its rules and how it talks to ZooKeeper.
type Config struct {
	// Servers are the ZooKeeper servers, "host:port" (port 2181 when
	// omitted). Required.
	Servers []string
	// Root is the parent of the default nodes; empty means DefaultRoot.
	Root string
	// App names the application: the default nodes are named after it.
	App string
	// Paths overrides the node of a kind, an absolute path; a kind not in
	// the map uses DefaultPath(Root, App, kind). The empty string leaves a
	// kind out.
	Paths map[rules.Kind]string
	// Kinds limits the kinds read and written; empty means all of
	// SupportedKinds.
	Kinds []rules.Kind
	// SessionTimeout is the ZooKeeper session timeout the client asks for
	// (the server bounds it between 2 and 20 ticks); zero means 10 s.
	SessionTimeout time.Duration
	// Timeout bounds the wait for a session when a Watch starts, and each
	// wait for one before a Write; zero means 3 s.
	Timeout time.Duration
	// ConflictRetries is how many times Write sets a node again on the
	// fresh content after a version conflict; zero means 3, negative means
	// never.
	ConflictRetries int
	// RetryInterval is the wait between reads after a failed one (zero
	// means 1 s).
	RetryInterval time.Duration
	// Logger receives the source's own log and, at debug level, the
	// client's; nil means slog.Default().
	Logger *slog.Logger
}

// SupportedKinds are the rule kinds a Source reads, each from its own node.
func SupportedKinds() []rules.Kind { return datasource.DocumentKinds() }

// DefaultPath is the node that holds the rules of kind for app under root
// (DefaultRoot when empty): root/app for flow rules, as in the Sentinel
// dashboard's ZooKeeper sample, and root/app-degrade-rules and so on for the
// other kinds, named as the dashboard's Nacos dataIds are
// (datasource.DocumentName). It is "" for a kind not kept in ZooKeeper.
func DefaultPath(root, app string, kind rules.Kind) string {
	name := datasource.DocumentName(app, kind)
	if name == "" {
		return ""
	}
	if kind == rules.KindFlow {
		name = app
	}
	if root == "" {
		root = DefaultRoot
	}
	return strings.TrimRight(root, "/") + "/" + name
}

func (c Config) withDefaults() Config {
	if c.Root == "" {
		c.Root = DefaultRoot
	}
	if c.SessionTimeout <= 0 {
		c.SessionTimeout = 10 * time.Second
	}
	if c.Timeout <= 0 {
		c.Timeout = 3 * time.Second
	}
	if c.ConflictRetries == 0 {
		c.ConflictRetries = 3
	}
	if c.RetryInterval <= 0 {
		c.RetryInterval = time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if len(c.Kinds) == 0 {
		c.Kinds = SupportedKinds()
	}
	return c
}
