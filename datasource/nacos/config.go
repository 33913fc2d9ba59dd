package nacos

import (
	"log/slog"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// DefaultGroup is the Nacos group Sentinel keeps its rules in.
const DefaultGroup = "SENTINEL_GROUP"

// Config says where a Source finds its rules and how it talks to Nacos.
type Config struct {
	// ServerAddrs are the Nacos servers, "host:port" (the HTTP port; the
	// SDK adds 1000 for gRPC), or "http://host:port/nacos". Required.
	ServerAddrs []string
	// Namespace is the namespace ID; empty is Nacos's public namespace.
	Namespace string
	// Group holds the dataIds; empty means DefaultGroup.
	Group string
	// App names the application: the default dataIds start with it.
	App string
	// DataIDs overrides the dataId of a kind; a kind not in the map uses
	// DefaultDataID(App, kind). The empty string leaves a kind out.
	DataIDs map[rules.Kind]string
	// Kinds limits the kinds read and written; empty means all of
	// SupportedKinds.
	Kinds []rules.Kind
	// Username and Password sign in when the server has auth on: the SDK
	// signs in with them, and so does Watch before its first read, to
	// fail at once on a wrong password.
	Username, Password string
	// Timeout bounds each request to Nacos; zero means 3 s, the timeout of
	// Sentinel's own Nacos data source.
	Timeout time.Duration
	// CacheDir is where the SDK keeps its snapshot of every dataId read;
	// LogDir is where it writes its log. Empty means the OS's temporary
	// directory.
	CacheDir, LogDir string
	// LogLevel is the SDK's log level: debug, info, warn or error
	// (default warn).
	LogLevel string
	// StartFromSnapshot lets a read that cannot reach Nacos fall back on the
	// SDK's local snapshot in CacheDir, so a service starts with the rules
	// it last read while Nacos is down. Without it such a read fails and
	// is reported.
	StartFromSnapshot bool
	// ConflictRetries is how many times Write publishes again on the fresh
	// content after a compare-and-swap conflict; zero means 3, negative
	// means never.
	ConflictRetries int
	// RetryInterval is the wait between reads after a failed one (zero
	// means 1 s).
	RetryInterval time.Duration
	// ProbeInterval is how often a Watch reads one of its dataIds through
	// Nacos's HTTP API, each read bounded by Timeout, to find out that
	// Nacos stopped answering: the SDK's subscription goes quiet without
	// telling. Zero means DefaultProbeInterval; negative means no probe.
	ProbeInterval time.Duration
	// Logger receives the source's own log; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultProbeInterval is the default Config.ProbeInterval. With the
// default Timeout, a Nacos that stops answering is reported within
// DefaultProbeInterval plus Timeout.
const DefaultProbeInterval = 5 * time.Second

// SupportedKinds are the rule kinds Sentinel keeps in Nacos, each in its
// own dataId.
func SupportedKinds() []rules.Kind { return datasource.DocumentKinds() }

// DefaultDataID is the dataId Sentinel's conventions give the rules of kind
// for app: app + "-flow-rules" and so on (datasource.DocumentName; see the
// package doc); "" for a kind not kept in Nacos.
func DefaultDataID(app string, kind rules.Kind) string { return datasource.DocumentName(app, kind) }

func (c Config) withDefaults() Config {
	if c.Group == "" {
		c.Group = DefaultGroup
	}
	if c.Timeout <= 0 {
		c.Timeout = 3 * time.Second
	}
	if c.LogLevel == "" {
		c.LogLevel = "warn"
	}
	if c.ConflictRetries == 0 {
		c.ConflictRetries = 3
	}
	if c.RetryInterval <= 0 {
		c.RetryInterval = time.Second
	}
	if c.ProbeInterval == 0 {
		c.ProbeInterval = DefaultProbeInterval
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if len(c.Kinds) == 0 {
		c.Kinds = SupportedKinds()
	}
	return c
}
