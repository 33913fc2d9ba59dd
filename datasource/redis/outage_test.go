package redis

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
)

// TestRedisStoppedAndRestarted kills the test server while a source
// watches, changes the key while the source cannot hear of it (the server
// restarts on a snapshot written by another redis-server), and checks the
// outage is reported with the rules kept, then the change applied once the
// subscription is back.
func TestRedisStoppedAndRestarted(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", flowJSON("10"))
	w, applied := watch(t, newTestSource(t, nil))

	killed := time.Now()
	server.kill()
	t.Cleanup(func() {
		if server.cmd == nil {
			if err := server.start(); err != nil {
				t.Error(err)
			}
		}
	})
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	t.Logf("outage reported %v after the kill: %v", time.Since(killed), w.LastError())
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Fatalf("flow counts %v during the outage, want the last good [10]", got)
	}

	// The change made meanwhile: a snapshot holding the new rules, which
	// the server loads when it starts again.
	writeSnapshot(t, key, flowJSON("25"))
	restarted := time.Now()
	if err := server.start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the change made during the outage is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{25})
	})
	t.Logf("change made during the outage applied %v after the restart began", time.Since(restarted))
	waitUntil(t, "the error is cleared", func() bool { return w.LastError() == nil })
}

// writeSnapshot has a second redis-server, started in the test server's
// data directory, store key=content and SAVE it there; it is stopped by its
// PID before returning.
func writeSnapshot(t *testing.T, key, content string) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := server.startIn(server.dir, port)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	side := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:" + itoa(port), MaxRetries: -1})
	defer side.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := side.Set(ctx, key, content, 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := side.Save(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(server.dir, "dump.rdb")); err != nil {
		t.Fatal(err)
	}
}

// TestRedisHangsAndResumes stops the server with SIGSTOP: its port still
// accepts connections but nothing answers, so only the PING on the
// subscription tells. The outage is reported with the rules kept, and a
// change made once the server resumes is applied.
func TestRedisHangsAndResumes(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", flowJSON("10"))
	w, applied := watch(t, newTestSource(t, func(cfg *Config) {
		cfg.PingInterval = 200 * time.Millisecond
		cfg.Timeout = 500 * time.Millisecond
	}))

	waitSubscribed(t, c, key+"-channel")
	// Let the full read that follows the subscription end first, so that
	// only the PING can tell.
	time.Sleep(100 * time.Millisecond)
	if err := server.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			if err := server.cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(resume)
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	t.Logf("hang reported %v after SIGSTOP: %v", time.Since(stopped), w.LastError())
	if err := w.LastError(); !strings.Contains(err.Error(), key) {
		t.Errorf("LastError() = %v, want it to name the keys", err)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Fatalf("flow counts %v during the outage, want the last good [10]", got)
	}

	resume()
	waitUntil(t, "the error is cleared", func() bool { return w.LastError() == nil })
	publish(t, c, key, key+"-channel", flowJSON("15"))
	waitUntil(t, "a change after the server resumed is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{15})
	})
}

// TestIdleSubscriptionIsNoOutage watches a healthy server that sends
// nothing for several ping intervals: the pings are answered and nothing is
// reported.
func TestIdleSubscriptionIsNoOutage(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key := app + "-flow-rules"
	publish(t, c, key, key+"-channel", flowJSON("10"))
	rec := &st.LogRecorder{}
	w, _ := watch(t, newTestSource(t, func(cfg *Config) {
		cfg.PingInterval = 50 * time.Millisecond
		cfg.Timeout = 500 * time.Millisecond
		cfg.Logger = rec.Logger()
	}))
	// Four times the silence an unanswered PING would be taken for an
	// outage after.
	time.Sleep(2 * time.Second)
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v on an idle healthy server", err)
	}
	if warns := rec.Records(t, "WARN"); len(warns) > 0 {
		t.Errorf("warnings on an idle healthy server: %v", warns)
	}
	if w.Rejected() != 0 {
		t.Errorf("Rejected() = %d", w.Rejected())
	}
}
