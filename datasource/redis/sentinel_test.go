package redis

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	goredis "github.com/redis/go-redis/v9"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
)

// sentinelMaster is the name the test sentinel monitors the test server
// under.
const sentinelMaster = "sentinelgen-rules"

// startSentinel runs a Redis Sentinel (redis-server --sentinel) that
// monitors the test server, and returns its address once it names the
// master; it is stopped by its PID when the test ends.
func startSentinel(t *testing.T) string {
	t.Helper()
	requireServer(t)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf")
	// A sentinel rewrites its configuration file, so it needs one.
	text := "sentinel monitor " + sentinelMaster + " 127.0.0.1 " + strconv.Itoa(server.port) + " 1\n"
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(server.bin, conf, "--sentinel", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--daemonize", "no", "--loglevel", "warning", "--dir", dir, "--logfile", filepath.Join(dir, "sentinel.log"))
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	sc := goredis.NewSentinelClient(&goredis.Options{Addr: addr, MaxRetries: -1})
	defer sc.Close()
	waitUntil(t, "the sentinel names the master", func() bool {
		a, err := sc.GetMasterAddrByName(context.Background(), sentinelMaster).Result()
		return err == nil && len(a) == 2 && a[1] == strconv.Itoa(server.port)
	})
	return addr
}

// TestThroughRedisSentinel finds the server through a Redis Sentinel, as a
// Java service configured with withRedisSentinel does, and follows a
// publish.
func TestThroughRedisSentinel(t *testing.T) {
	sentinel := startSentinel(t)
	c := admin(t)
	app := testApp(t)
	key, ch := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, ch, flowJSON("6"))
	src := newTestSource(t, func(cfg *Config) {
		cfg.Addr = ""
		cfg.SentinelAddrs = []string{sentinel}
		cfg.MasterName = sentinelMaster
	})
	if got := src.String(); got != "redis:sentinel/"+sentinelMaster+"/0/"+app+"-*" {
		t.Errorf("String() = %q", got)
	}
	w, applied := watch(t, src)
	if s, _ := applied.Last(); !slices.Equal(st.FlowCounts(s), []float64{6}) {
		t.Fatalf("first set %v, want [6]", st.FlowCounts(s))
	}
	publish(t, c, key, ch, flowJSON("8"))
	waitUntil(t, "the publish is applied", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{8})
	})
	set := w.Property().Get()
	set.Flow = parseFlow(t, flowJSON("9")).Flow
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write through the sentinel: %v", err)
	}
	if got := st.FlowCounts(parseFlow(t, stored(t, c, key))); !slices.Equal(got, []float64{9}) {
		t.Errorf("stored %v after Write, want [9]", got)
	}
}

func TestSentinelConfigNeedsAMasterName(t *testing.T) {
	if _, err := NewSource(Config{SentinelAddrs: []string{"127.0.0.1:26379"}, App: "orders"}); err == nil {
		t.Error("NewSource with SentinelAddrs and no MasterName succeeded")
	}
	if _, err := NewSource(Config{SentinelAddrs: []string{"127.0.0.1:26379"}, MasterName: "m", App: "orders"}); err != nil {
		t.Errorf("NewSource with sentinels and a master name, no Addr: %v", err)
	}
}
