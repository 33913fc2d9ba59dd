package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// lockedBuffer is the command's output, read while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// The command serves the cluster rules of a watched file to clients of
// the file's namespace; an edit of the file changes the budget.
func TestServesRulesFromAWatchedFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "orders.json")
	write := func(count string) {
		t.Helper()
		tmp := file + ".tmp"
		body := `[{"resource":"createOrder","count":` + count + `,"clusterMode":true,"clusterConfig":{"flowId":7,"thresholdType":1}}]`
		if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	write("2")
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-listen", addr, "-rules", "orders=" + file}, out) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	c, err := tokenclient.New(tokenclient.Config{Addr: addr, Namespace: "orders", RequestTimeout: time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); !c.Connected(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no server on %s; output:\n%s", addr, out)
		}
	}
	var got []runtime.TokenStatus
	for range 3 {
		got = append(got, c.Request(7, 1, false).Status)
	}
	if got[0] != runtime.TokenOK || got[1] != runtime.TokenOK || got[2] != runtime.TokenBlocked {
		t.Fatalf("answers %v, want ok ok blocked for a budget of 2", got)
	}
	write("100")
	deadline := time.Now().Add(10 * time.Second)
	for c.Request(7, 1, false).Status != runtime.TokenOK {
		if time.Now().After(deadline) {
			t.Fatalf("the edited budget never applied; output:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "namespace orders: 1 cluster flow rules") {
		t.Errorf("output:\n%s", out)
	}
}

// A rule file that cannot be read stops the command at start, naming it.
func TestBadRulesStopTheStart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(file, []byte(`[{"resource":"x","count":-1,"clusterMode":true,"clusterConfig":{"flowId":1}}]`), 0o644)
	err := run(context.Background(), []string{"-listen", freeAddr(t), "-rules", file}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Fatalf("run with a bad rule file: %v", err)
	}
}
