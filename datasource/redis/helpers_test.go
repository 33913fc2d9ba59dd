package redis

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
)

// waitTimeout bounds every wait for something the tests expect; a publish
// normally reaches the subscriber far sooner.
const waitTimeout = 15 * time.Second

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// testApp is an app name of the test's own, so tests sharing the server
// never see each other's keys.
func testApp(t *testing.T) string {
	return "app-" + strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())
}

// newTestSource is a Source for the test's app on the test server, with
// short intervals so that faults show quickly.
func newTestSource(t *testing.T, change func(*Config)) *Source {
	t.Helper()
	cfg := Config{
		Addr:          requireServer(t),
		App:           testApp(t),
		Timeout:       2 * time.Second,
		PingInterval:  time.Second,
		RetryInterval: 100 * time.Millisecond,
		Logger:        testLogger(t),
	}
	if change != nil {
		change(&cfg)
	}
	src, err := NewSource(cfg)
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	t.Cleanup(func() { _ = src.Close() })
	return src
}

// admin is a plain client on the test server, as an operator or another
// service would use; closed when the test ends.
func admin(t *testing.T) *goredis.Client {
	t.Helper()
	c := goredis.NewClient(&goredis.Options{Addr: requireServer(t), MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// publish stores content in key and announces it on channel in one
// MULTI/EXEC, the way Sentinel documents for its Java RedisDataSource.
func publish(t testing.TB, c *goredis.Client, key, channel, content string) {
	t.Helper()
	ctx := context.Background()
	_, err := c.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, key, content, 0)
		p.Publish(ctx, channel, content)
		return nil
	})
	if err != nil {
		t.Fatalf("SET %s + PUBLISH %s: %v", key, channel, err)
	}
}

// stored is key's content now ("" when missing).
func stored(t *testing.T, c *goredis.Client, key string) string {
	t.Helper()
	v, err := c.Get(context.Background(), key).Result()
	if err == goredis.Nil {
		return ""
	}
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v
}

// watch runs datasource.Watch on src with a capturing applier until the
// test ends.
func watch(t *testing.T, src datasource.Source, opts ...datasource.WatchOption) (*datasource.Watcher, *st.AppliedSets) {
	t.Helper()
	return st.WatchApplied(t, src, testLogger(t), waitTimeout, opts...)
}

// waitUntil polls cond until it holds, failing the test after waitTimeout.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// flowJSON is Sentinel's JSON for one flow rule on createOrder.
func flowJSON(count string) string {
	return `[{"resource":"createOrder","grade":1,"count":` + count + `}]`
}

// itoa formats a port.
func itoa(n int) string { return strconv.Itoa(n) }

// quiet is a logger that drops everything, for benchmarks.
func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// benchServer is requireServer for a benchmark.
func benchServer(b *testing.B) string {
	b.Helper()
	if server == nil {
		b.Skip(noServer)
	}
	return server.addr
}

// benchClient is a plain client on addr, closed when b ends.
func benchClient(b *testing.B, addr string) *goredis.Client {
	c := goredis.NewClient(&goredis.Options{Addr: addr, MaxRetries: -1})
	b.Cleanup(func() { _ = c.Close() })
	return c
}

// waitSubscribed waits until one client subscribes to channel, so that what
// the test does next is not read by the source's first full read instead.
func waitSubscribed(t *testing.T, c *goredis.Client, channel string) {
	t.Helper()
	waitUntil(t, "the source subscribes to "+channel, func() bool {
		n, err := c.PubSubNumSub(context.Background(), channel).Result()
		return err == nil && n[channel] == 1
	})
}
