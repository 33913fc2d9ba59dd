// Package redistest runs a private redis-server for one test: on 127.0.0.1,
// on a free port, without persistence, killed when the test ends.
package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Server is a redis-server process owned by one test.
type Server struct {
	// Addr is host:port, e.g. "127.0.0.1:40123"; it stays the same across
	// Kill and Restart.
	Addr string

	t    testing.TB
	bin  string
	port int
	mode mode
	// master is the address a sentinel monitors.
	master string

	mu  sync.Mutex
	cmd *exec.Cmd
}

// mode is what a Server runs as.
type mode int

const (
	plain    mode = iota
	cluster       // a one-node Redis Cluster
	sentinel      // a Redis Sentinel monitoring one master
)

// SentinelMaster is the master name StartSentinel monitors.
const SentinelMaster = "sentinelgen"

// startTimeout bounds how long a server may take to answer PING.
const startTimeout = 5 * time.Second

// Start runs redis-server for t and stops it in t.Cleanup. When the binary is
// not installed the test is skipped, unless the environment variable CI (or
// SENTINELGEN_REQUIRE_SERVERS, which the repository's test script sets) is
// set: there a missing server is a failure.
func Start(t testing.TB) *Server {
	t.Helper()
	return start(t, plain, "")
}

// StartCluster is Start for a one-node Redis Cluster that serves every hash
// slot: enough to check that a client in cluster mode works and that every
// script keeps its keys in one slot (Redis refuses CROSSSLOT scripts even on
// one node).
func StartCluster(t testing.TB) *Server {
	t.Helper()
	s := start(t, cluster, "")
	if err := command(s.Addr, "CLUSTER", "ADDSLOTSRANGE", "0", "16383"); err != nil {
		t.Fatalf("assigning slots: %v", err)
	}
	deadline := time.Now().Add(startTimeout)
	for {
		info, err := bulk(s.Addr, "CLUSTER", "INFO")
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster state not ok within %v: %v\n%s", startTimeout, err, info)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// StartSentinel runs a Redis Sentinel that monitors master under the name
// SentinelMaster (quorum 1), for clients that find the master through
// Sentinel. It returns once the sentinel reports the master's address.
func StartSentinel(t testing.TB, master *Server) *Server {
	t.Helper()
	s := start(t, sentinel, master.Addr)
	deadline := time.Now().Add(startTimeout)
	for {
		reply, err := roundTrip(s.Addr, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SentinelMaster)
		if err == nil && strings.HasPrefix(reply, "*2") {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("sentinel does not know the master within %v: %v %q", startTimeout, err, reply)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func start(t testing.TB, m mode, master string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != "" {
			t.Fatalf("redis-server not found (CI is set, so this is a failure): %v", err)
		}
		t.Skipf("redis-server not found: %v", err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), t: t, bin: bin, port: port, mode: m, master: master}
	t.Cleanup(s.Kill)
	s.Restart()
	return s
}

// freePort asks the kernel for a port nobody listens on. Another process
// could take it before redis-server binds it; the start then fails loudly.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Restart starts the server again on the same port after Kill (or starts it
// the first time), and waits until it answers PING. Its data starts empty.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		s.t.Fatal("redistest: Restart while the server runs")
	}
	dir := s.t.TempDir()
	logFile := filepath.Join(dir, "redis.log")
	cmd := exec.Command(s.bin,
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no",
		"--loglevel", "warning", "--dir", dir, "--logfile", logFile,
		// Tests make the server slow with DEBUG SLEEP.
		"--enable-debug-command", "local")
	switch s.mode {
	case cluster:
		cmd.Args = append(cmd.Args, "--cluster-enabled", "yes",
			"--cluster-config-file", filepath.Join(dir, "nodes.conf"))
	case sentinel:
		// A sentinel rewrites its configuration file, so it needs one.
		host, port, _ := net.SplitHostPort(s.master)
		conf := filepath.Join(dir, "sentinel.conf")
		text := "sentinel monitor " + SentinelMaster + " " + host + " " + port + " 1\n"
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			s.t.Fatal(err)
		}
		cmd = exec.Command(s.bin, conf, "--sentinel",
			"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
			"--daemonize", "no", "--loglevel", "warning", "--dir", dir, "--logfile", logFile)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	s.cmd = cmd
	if err := waitForPing(s.Addr, startTimeout); err != nil {
		log, _ := os.ReadFile(logFile)
		s.t.Fatalf("redis-server on %s: %v\n%s", s.Addr, err, log)
	}
}

// Kill stops the server with SIGKILL, as a crash would, and waits for the
// process to go. Calling it on a stopped server does nothing.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Pause stops the server with SIGSTOP: the kernel still accepts
// connections on its port and takes the bytes clients send, but nothing
// answers, as with a server stuck in a long stall or a host that froze.
// Resume continues it; Kill works on a paused server too.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume continues a server stopped by Pause.
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("redistest: %v to a server that is not running", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("redistest: %v: %v", sig, err)
	}
}

// waitForPing polls addr with a raw RESP PING until it answers +PONG.
func waitForPing(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if last = ping(addr); last == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("no PONG within %v: %w", timeout, last)
}

func ping(addr string) error {
	reply, err := roundTrip(addr, "PING")
	if err != nil {
		return err
	}
	if reply != "+PONG" {
		return fmt.Errorf("PING answered %q", reply)
	}
	return nil
}

// command sends one command and expects +OK.
func command(addr string, args ...string) error {
	reply, err := roundTrip(addr, args...)
	if err != nil {
		return err
	}
	if reply != "+OK" {
		return fmt.Errorf("%s answered %q", args[0], reply)
	}
	return nil
}

// bulk sends one command and returns its bulk-string reply.
func bulk(addr string, args ...string) (string, error) {
	conn, r, err := send(addr, args...)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	head, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if !strings.HasPrefix(head, "$") || err != nil || n < 0 {
		return "", fmt.Errorf("%s answered %q", args[0], head)
	}
	body := make([]byte, n+2)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", err
	}
	return string(body[:n]), nil
}

// roundTrip sends one command and returns its first reply line.
func roundTrip(addr string, args ...string) (string, error) {
	conn, r, err := send(addr, args...)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	line, err := r.ReadString('\n')
	return strings.TrimSpace(line), err
}

// send dials addr and writes one command in RESP.
func send(addr string, args ...string) (net.Conn, *bufio.Reader, error) {
	conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return nil, nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(500 * time.Millisecond))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := conn.Write([]byte(b.String())); err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, bufio.NewReader(conn), nil
}
