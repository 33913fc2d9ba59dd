// Package servertest starts the real servers the main module's tests read
// from (redis-server, etcd): each on 127.0.0.1 on a free port, with its data
// in the test's temporary directory, killed by PID when the test ends. A
// missing binary skips the test, or fails it when the CI or
// SENTINELGEN_REQUIRE_SERVERS environment variable is set, so CI cannot pass
// by testing nothing. (The nested modules have fuller harnesses of their
// own, with restarts and pauses.)
package servertest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/resp"
)

// Required reports whether a missing server fails a test rather than
// skipping it.
func Required() bool {
	return os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != ""
}

// readyTimeout bounds how long a server may take to answer.
const readyTimeout = 20 * time.Second

// StartRedis runs a private redis-server with the extra arguments given
// (e.g. "--requirepass", "pw") and returns its address.
func StartRedis(t testing.TB, extra ...string) string {
	t.Helper()
	bin := look(t, "redis-server", "redis-server")
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	args := append([]string{"--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir()}, extra...)
	run(t, exec.Command(bin, args...))
	waitFor(t, "redis-server", func() error {
		c, err := resp.Dial(context.Background(), addr)
		if err == nil {
			c.Close()
		}
		return err
	})
	return addr
}

// Redis sends one command to the server at addr, after AUTH password when
// password is not empty, and fails t on an error.
func Redis(t testing.TB, addr, password string, args ...string) []byte {
	t.Helper()
	c, err := resp.Dial(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if password != "" {
		if _, _, err := c.Do("AUTH", password); err != nil {
			t.Fatal(err)
		}
	}
	v, _, err := c.Do(args...)
	if err != nil {
		t.Fatalf("redis %v: %v", args, err)
	}
	return v
}

// StartEtcd runs a private single-member etcd and returns its client
// address, host:port.
func StartEtcd(t testing.TB) string {
	t.Helper()
	bin := look(t, "etcd", "etcd-server")
	client, peer := freeAddr(t), freeAddr(t)
	run(t, exec.Command(bin, "--data-dir", t.TempDir(), "--name", "servertest",
		"--listen-client-urls", "http://"+client, "--advertise-client-urls", "http://"+client,
		"--listen-peer-urls", "http://"+peer, "--initial-advertise-peer-urls", "http://"+peer,
		"--initial-cluster", "servertest=http://"+peer))
	waitFor(t, "etcd", func() error {
		resp, err := http.Get("http://" + client + "/health")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("health: %s", resp.Status)
		}
		return nil
	})
	return client
}

// EtcdPut stores value under key through etcd's JSON gateway.
func EtcdPut(t testing.TB, addr, key, value string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{
		"key":   base64.StdEncoding.EncodeToString([]byte(key)),
		"value": base64.StdEncoding.EncodeToString([]byte(value)),
	})
	resp, err := http.Post("http://"+addr+"/v3/kv/put", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("etcd put %s: %s", key, resp.Status)
	}
}

// look finds bin in PATH, or skips (fails under CI) naming the Debian
// package to install.
func look(t testing.TB, bin, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		if Required() {
			t.Fatalf("%s not found (CI is set, so this is a failure; scripts/servers.sh installs the %s package): %v", bin, pkg, err)
		}
		t.Skipf("%s not found (install the %s package to run this test): %v", bin, pkg, err)
	}
	return path
}

// freeAddr returns a 127.0.0.1 address nobody listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// run starts cmd in its own process group and kills the group when t ends,
// showing the server's output if t failed.
func run(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("%s output:\n%s", cmd.Path, out.String())
		}
	})
}

// waitFor polls ready until it succeeds, failing t after readyTimeout.
func waitFor(t testing.TB, what string, ready func() error) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for {
		err := ready()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready within %v: %v", what, readyTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
