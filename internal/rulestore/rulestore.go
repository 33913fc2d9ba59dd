// Package rulestore reads, once, the rule documents a configuration store
// holds, named by a URL: what `sentinelgen lint -rules URL` checks against the
// code, so that the rules a team keeps in Nacos, etcd or Redis are linted in
// CI before a deploy. It speaks each store's plain protocol with the standard
// library (Nacos's HTTP open API, etcd's JSON gateway, the Redis protocol),
// so the main module takes no client library; services watch their stores
// with the datasource packages instead.
//
// Documents are named as the datasource packages name them ("nacos:GROUP/
// dataId", "etcd:/key", "redis:key"), so a lint finding points at the same
// place as the error a running service would log.
package rulestore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
)

// DefaultTimeout bounds a whole Read when the caller's context has no
// deadline.
const DefaultTimeout = 10 * time.Second

// reader reads the documents of one store.
type reader func(ctx context.Context, u *url.URL) ([]rules.Document, error)

// readers maps a URL scheme to its store.
var readers = map[string]reader{
	"nacos": readNacos,
	"etcd":  readEtcd,
	"redis": readRedis,
}

// IsURL reports whether s names a store Read knows ("nacos://…", "etcd://…",
// "redis://…") rather than a file.
func IsURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok {
		return false
	}
	_, known := readers[strings.ToLower(scheme)]
	return known
}

// Read returns the rule documents the store named by raw holds:
//
//	nacos://[user:password@]host:port/?app=APP[&namespace=NS][&group=G][&dataId=ID]...
//	etcd://[user:password@]host:port/KEY     (a KEY ending in "/" is a prefix)
//	redis://[[user]:password@]host:port[/DB]?key=KEY[&key=KEY]...   (or app=APP)
//
// A store that holds none of the documents asked for is an error naming what
// was looked for, so a misspelt app or key never lints nothing in silence.
// The documents are not parsed: that is rules.ParseAll's work.
func Read(ctx context.Context, raw string) ([]rules.Document, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("rules store %q: %v", raw, err)
	}
	read, ok := readers[strings.ToLower(u.Scheme)]
	if !ok {
		return nil, fmt.Errorf("rules store %q: unknown scheme %q (use nacos://, etcd:// or redis://)", raw, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("rules store %q: no host:port", redact(u))
	}
	if _, has := ctx.Deadline(); !has {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	docs, err := read(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("rules store %s: %w", redact(u), err)
	}
	return docs, nil
}

// errNothing is wrapped by the error of a store that holds none of the
// documents asked for.
var errNothing = errors.New("no rule documents found")

// redact is u for messages: without its password.
func redact(u *url.URL) string { return u.Redacted() }

// queryList returns the values of a query parameter, also when given as a
// comma-separated list.
func queryList(q url.Values, name string) []string {
	var out []string
	for _, v := range q[name] {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}
