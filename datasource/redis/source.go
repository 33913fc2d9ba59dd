package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Source reads rule documents from Redis, one key per rule kind, and writes
// rule sets back. It implements datasource.Source and
// datasource.WritableSource. A Source runs one Watch at a time; Write may be
// called while it runs. Close releases its connections.
type Source struct {
	client *goredis.Client
	cfg    Config
	// kinds are the kinds read, each with its key and channel, in
	// Config.Kinds order.
	kinds []kindKey
	// channels are the distinct channels of kinds, then their keyspace
	// channels under Config.KeyspaceEvents.
	channels []string

	watching atomic.Bool
	// writeMu orders Writes, so each one builds on the one before.
	writeMu sync.Mutex
	// mu guards base.
	mu sync.Mutex
	// base holds the content of each key as last read or written ("" for
	// a missing one): what Write compares against.
	base map[string]string

	// beforeExec, when set, runs in Write between the comparison and
	// MULTI/EXEC: tests change a key there as a concurrent writer would.
	beforeExec func()
}

// kindKey is a rule kind with the key that holds it and the channel that
// announces its changes.
type kindKey struct {
	kind    rules.Kind
	key     string
	channel string
	// keyspace is the key's keyspace notification channel; "" without
	// Config.KeyspaceEvents.
	keyspace string
}

// NewSource returns a source for the keys cfg names, with its own Redis
// client. It does not contact Redis: the first Watch or Write does.
func NewSource(cfg Config) (*Source, error) {
	cfg = cfg.withDefaults()
	switch {
	case len(cfg.SentinelAddrs) > 0:
		if cfg.MasterName == "" {
			return nil, errors.New("redis: Config.SentinelAddrs without Config.MasterName")
		}
		for _, a := range cfg.SentinelAddrs {
			if _, _, err := net.SplitHostPort(a); err != nil {
				return nil, fmt.Errorf("redis: sentinel address %q: want host:port: %w", a, err)
			}
		}
	case cfg.Addr == "":
		return nil, errors.New("redis: Config.Addr is empty")
	default:
		if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
			return nil, fmt.Errorf("redis: address %q: want host:port: %w", cfg.Addr, err)
		}
	}
	var kinds []kindKey
	seen := map[string]bool{}
	var channels []string
	for _, k := range cfg.Kinds {
		if !slices.Contains(SupportedKinds(), k) {
			return nil, fmt.Errorf("redis: rule kind %q is not kept in Redis (want one of %v)", k, SupportedKinds())
		}
		key, ok := cfg.Keys[k]
		if !ok {
			if cfg.App == "" {
				return nil, fmt.Errorf("redis: no key for %s rules: set Config.App or Config.Keys", k)
			}
			key = DefaultKey(cfg.App, k)
		}
		if key == "" {
			continue
		}
		ch, ok := cfg.Channels[k]
		if !ok || ch == "" {
			ch = key + ChannelSuffix
		}
		for _, other := range kinds {
			if other.key == key {
				return nil, fmt.Errorf("redis: %s and %s rules both in key %q: each kind needs its own key", other.kind, k, key)
			}
		}
		kk := kindKey{kind: k, key: key, channel: ch}
		if cfg.KeyspaceEvents {
			kk.keyspace = fmt.Sprintf("__keyspace@%d__:%s", cfg.DB, key)
		}
		kinds = append(kinds, kk)
		if !seen[ch] {
			seen[ch] = true
			channels = append(channels, ch)
		}
	}
	for _, k := range kinds {
		if k.keyspace != "" && !seen[k.keyspace] {
			seen[k.keyspace] = true
			channels = append(channels, k.keyspace)
		}
	}
	if len(kinds) == 0 {
		return nil, errors.New("redis: no key to read")
	}
	return &Source{client: newClient(cfg), cfg: cfg, kinds: kinds, channels: channels, base: map[string]string{}}, nil
}

// newClient is the client cfg describes: on one server, or on the master
// the sentinels name.
func newClient(cfg Config) *goredis.Client {
	if len(cfg.SentinelAddrs) > 0 {
		return goredis.NewFailoverClient(&goredis.FailoverOptions{
			MasterName:       cfg.MasterName,
			SentinelAddrs:    cfg.SentinelAddrs,
			SentinelPassword: cfg.SentinelPassword,
			Username:         cfg.Username,
			Password:         cfg.Password,
			DB:               cfg.DB,
			DialTimeout:      cfg.Timeout,
			ReadTimeout:      cfg.Timeout,
			WriteTimeout:     cfg.Timeout,
			MaxRetries:       -1,
		})
	}
	return goredis.NewClient(&goredis.Options{
		Addr:         cfg.Addr,
		Username:     cfg.Username,
		Password:     cfg.Password,
		DB:           cfg.DB,
		DialTimeout:  cfg.Timeout,
		ReadTimeout:  cfg.Timeout,
		WriteTimeout: cfg.Timeout,
		// The source retries on its own schedule and reports every
		// failure; the client's retries would only hide them.
		MaxRetries: -1,
	})
}

// String names the source in logs and errors: "redis:127.0.0.1:6379/0/orders-*",
// or "redis:sentinel/mymaster/0/orders-*" through Redis Sentinel.
func (s *Source) String() string {
	addr := s.cfg.Addr
	if len(s.cfg.SentinelAddrs) > 0 {
		addr = "sentinel/" + s.cfg.MasterName
	}
	name := fmt.Sprintf("redis:%s/%d", addr, s.cfg.DB)
	if s.cfg.App != "" {
		return name + "/" + s.cfg.App + "-*"
	}
	return name
}

// Key returns the key the source reads the rules of kind from; "" when it
// does not read that kind.
func (s *Source) Key(kind rules.Kind) string {
	for _, k := range s.kinds {
		if k.kind == kind {
			return k.key
		}
	}
	return ""
}

// Channel returns the channel that announces changes of the rules of kind;
// "" when the source does not read that kind.
func (s *Source) Channel(kind rules.Kind) string {
	for _, k := range s.kinds {
		if k.kind == kind {
			return k.channel
		}
	}
	return ""
}

// Close releases the source's connections. Call it after the Watch has
// stopped.
func (s *Source) Close() error { return s.client.Close() }

// docName is the Document name of a key: positions in errors then read
// "redis:orders-flow-rules: [0].count".
func docName(key string) string { return "redis:" + key }

// document is the rule document a key's content is: Sentinel's JSON of one
// kind.
func document(k kindKey, content string) rules.Document {
	return rules.Document{Name: docName(k.key), Data: []byte(content), Format: rules.FormatJSON, Kind: k.kind}
}

// readKeys fetches the content of keys with one GET each in one MULTI/EXEC,
// so they are read at one moment; "" for a missing key. A key that holds
// something other than a string (which MGET would show as missing) is an
// error naming it. The read is bounded by Config.Timeout.
func (s *Source) readKeys(ctx context.Context, keys []string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	var cmds []*goredis.StringCmd
	_, err := s.client.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		cmds = getAll(ctx, p, keys)
		return nil
	})
	return s.contents(keys, cmds, err)
}

// getAll queues a GET of each key on p.
func getAll(ctx context.Context, p goredis.Pipeliner, keys []string) []*goredis.StringCmd {
	cmds := make([]*goredis.StringCmd, len(keys))
	for i, k := range keys {
		cmds[i] = p.Get(ctx, k)
	}
	return cmds
}

// contents is what the GETs of keys answered, err being what running them
// returned: each key's content, "" for a missing one; or the first error,
// naming its key when it is that key's own (a key of another type).
func (s *Source) contents(keys []string, cmds []*goredis.StringCmd, err error) (map[string]string, error) {
	for i, cmd := range cmds {
		var rerr goredis.Error
		if cerr := cmd.Err(); cerr != nil && cerr != goredis.Nil && errors.As(cerr, &rerr) {
			return nil, fmt.Errorf("%v: reading key %s: %w", s, keys[i], cerr)
		}
	}
	if err != nil && err != goredis.Nil || len(cmds) != len(keys) {
		return nil, fmt.Errorf("%v: reading key %s: %w", s, strings.Join(keys, ", "), err)
	}
	out := make(map[string]string, len(keys))
	for i, cmd := range cmds {
		out[keys[i]] = cmd.Val()
	}
	return out, nil
}

// allKeys lists the source's keys.
func (s *Source) allKeys() []string {
	keys := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		keys[i] = k.key
	}
	return keys
}
