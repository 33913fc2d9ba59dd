package redis

import (
	"log/slog"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Config says where a Source finds its rules and how it talks to Redis.
type Config struct {
	// Addr is the Redis server, "host:port". Required unless
	// SentinelAddrs is set.
	Addr string
	// SentinelAddrs, when set, are Redis Sentinel servers ("host:port")
	// that name the master of MasterName; the source follows the master
	// they name, as Sentinel's Java RedisConnectionConfig does with
	// withRedisSentinel and withSentinelMasterId. Addr is then ignored.
	SentinelAddrs []string
	// MasterName is the name the sentinels monitor the master under;
	// required with SentinelAddrs.
	MasterName string
	// SentinelPassword signs in to the sentinels when they have a
	// password of their own.
	SentinelPassword string
	// Username and Password sign in (AUTH); Username is for Redis 6 ACL
	// users, empty for the default user.
	Username, Password string
	// DB is the database number the keys live in (SELECT).
	DB int
	// App names the application: the default keys and channels start with
	// it (see DefaultKey and DefaultChannel).
	App string
	// Keys overrides the key of a kind; a kind not in the map uses
	// DefaultKey(App, kind). The empty string leaves a kind out.
	Keys map[rules.Kind]string
	// Channels overrides the pub/sub channel of a kind; a kind not in the
	// map (or mapped to "") uses its key's name followed by ChannelSuffix,
	// which is DefaultChannel(App, kind) for a default key.
	Channels map[rules.Kind]string
	// Kinds limits the kinds read and written; empty means all of
	// SupportedKinds.
	Kinds []rules.Kind
	// Timeout bounds each request to Redis and each dial; zero means 3 s.
	Timeout time.Duration
	// PingInterval is how long the subscription may stay silent before the
	// source pings Redis on it; an answer missing after Timeout more is an
	// outage (a server that hangs without closing its connections). Zero
	// means 5 s.
	PingInterval time.Duration
	// RetryInterval is the wait between attempts after a failed read or a
	// lost subscription; zero means 1 s.
	RetryInterval time.Duration
	// KeyspaceEvents makes the source also subscribe to the keyspace
	// notifications of its keys ("__keyspace@<DB>__:<key>"), so that a
	// writer that only SETs or DELs a key, without publishing, is followed
	// too. The server must send them (notify-keyspace-events with K, and $
	// and g for SET and DEL), and an ACL user needs access to those
	// channels.
	KeyspaceEvents bool
	// ConflictRetries is how many times Write tries again on the content
	// read afresh after a compare-and-swap conflict; zero means 3,
	// negative means never.
	ConflictRetries int
	// Logger receives the source's own log; nil means slog.Default().
	Logger *slog.Logger
}

// ChannelSuffix ends the name of every default channel: the channel of the
// key "orders-flow-rules" is "orders-flow-rules-channel".
const ChannelSuffix = "-channel"

// SupportedKinds are the rule kinds a Source keeps in Redis, each in its own
// key with its own channel.
func SupportedKinds() []rules.Kind { return datasource.DocumentKinds() }

// DefaultKey is the key that holds the rules of kind for app by default:
// app + "-flow-rules" and so on, the names Sentinel's dashboard gives the
// Nacos dataIds (datasource.DocumentName; see the package doc); "" for a
// kind not kept in Redis.
func DefaultKey(app string, kind rules.Kind) string { return datasource.DocumentName(app, kind) }

// DefaultChannel is the channel that announces changes of the rules of kind
// for app by default: DefaultKey + ChannelSuffix; "" for a kind not kept in
// Redis.
func DefaultChannel(app string, kind rules.Kind) string {
	k := DefaultKey(app, kind)
	if k == "" {
		return ""
	}
	return k + ChannelSuffix
}

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = 3 * time.Second
	}
	if c.PingInterval <= 0 {
		c.PingInterval = 5 * time.Second
	}
	if c.RetryInterval <= 0 {
		c.RetryInterval = time.Second
	}
	if c.ConflictRetries == 0 {
		c.ConflictRetries = 3
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if len(c.Kinds) == 0 {
		c.Kinds = SupportedKinds()
	}
	return c
}
