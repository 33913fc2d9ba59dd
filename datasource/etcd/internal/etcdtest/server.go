// Package etcdtest runs a real single-member etcd server for tests: on
// loopback ports chosen at start, with its data in a test's temporary
// directory, stopped when the test ends. A test can kill the server and start
// it again on the same ports and data, to check what clients do while it is
// away.
package etcdtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Binary is the etcd executable the tests run (looked up in PATH).
const Binary = "etcd"

// readyTimeout bounds how long a start may take before the test fails; a
// single member on loopback is normally ready in well under a second.
const readyTimeout = 15 * time.Second

// Server is one etcd process owned by a test.
type Server struct {
	t         testing.TB
	name      string
	dataDir   string
	clientURL string
	peerURL   string

	mu   sync.Mutex
	cmd  *exec.Cmd
	out  *lockedBuffer
	done chan struct{} // closed when cmd has exited
}

// Start runs a fresh etcd and waits until it answers its health check. It
// skips the test when the etcd binary is missing, unless the CI or
// SENTINELGEN_REQUIRE_SERVERS environment variable is set: then a missing
// server is a failure, so CI cannot pass by testing nothing. The server is
// killed when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath(Binary); err != nil {
		if os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != "" {
			t.Fatalf("etcd binary not found (%v); install the etcd-server package", err)
		}
		t.Skipf("etcd binary not found (%v); install the etcd-server package to run this test", err)
	}
	s := &Server{t: t, name: "etcdtest", dataDir: t.TempDir()}
	// A port chosen free may be taken by someone else before etcd binds it;
	// a fresh pair of ports on a failed first start makes that harmless.
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		s.clientURL = "http://" + freeAddr(t)
		s.peerURL = "http://" + freeAddr(t)
		if err = s.start(); err == nil {
			break
		}
		s.stop()
		os.RemoveAll(s.dataDir)
		s.dataDir = t.TempDir()
	}
	if err != nil {
		t.Fatalf("etcd did not start: %v\n%s", err, s.out.String())
	}
	t.Cleanup(s.stop)
	return s
}

// Endpoint is the client URL, e.g. "http://127.0.0.1:40123".
func (s *Server) Endpoint() string { return s.clientURL }

// Kill ends the server at once (SIGKILL), as a crash or a lost machine would,
// and waits until the process is gone.
func (s *Server) Kill() {
	s.t.Helper()
	s.stop()
}

// Restart starts the server again on the same ports and data directory after
// Kill, and waits until it is healthy.
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatalf("etcd did not restart: %v\n%s", err, s.out.String())
	}
}

// RestartEmpty ends the server (SIGKILL) and starts it again on the same
// ports with an empty data directory, as a member restored without its data
// would be: the same cluster and member, its history back to revision 1.
func (s *Server) RestartEmpty() {
	s.t.Helper()
	s.stop()
	if err := os.RemoveAll(s.dataDir); err != nil {
		s.t.Fatalf("etcdtest: emptying the data directory: %v", err)
	}
	if err := os.MkdirAll(s.dataDir, 0o700); err != nil {
		s.t.Fatalf("etcdtest: making the data directory: %v", err)
	}
	s.Restart()
}

// Pause stops the server's process (SIGSTOP): it keeps its connections open
// and answers nothing, as a hung server does, until Resume.
func (s *Server) Pause() {
	s.t.Helper()
	s.signal(syscall.SIGSTOP)
}

// Resume lets a paused server's process run again (SIGCONT).
func (s *Server) Resume() {
	s.t.Helper()
	s.signal(syscall.SIGCONT)
}

// signal sends sig to the server's process, by its PID.
func (s *Server) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		s.t.Fatalf("etcdtest: no server to send %v", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("etcdtest: sending %v: %v", sig, err)
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return fmt.Errorf("etcdtest: server already running")
	}
	s.out = &lockedBuffer{}
	cmd := exec.Command(Binary,
		"--name", s.name,
		"--data-dir", s.dataDir,
		"--listen-client-urls", s.clientURL,
		"--advertise-client-urls", s.clientURL,
		"--listen-peer-urls", s.peerURL,
		"--initial-advertise-peer-urls", s.peerURL,
		"--initial-cluster", s.name+"="+s.peerURL,
		"--initial-cluster-state", "new",
		// Short raft timings: a single member then elects itself in tens of
		// milliseconds after a (re)start instead of about a second.
		"--heartbeat-interval", "10",
		"--election-timeout", "100",
		"--logger", "zap",
		"--log-level", "warn",
	)
	cmd.Stdout, cmd.Stderr = s.out, s.out
	// Its own process group, so a signal sent to the test run's group does
	// not reach it before the test's cleanup does.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done
	return waitHealthy(s.clientURL, done)
}

func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
	s.cmd, s.done = nil, nil
}

// waitHealthy polls etcd's /health endpoint until it reports a leader and a
// working store, the process exits, or readyTimeout passes.
func waitHealthy(clientURL string, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	hc := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, clientURL+"/health", nil)
		if resp, err := hc.Do(req); err == nil {
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body.Bytes(), []byte(`"health":"true"`)) {
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("etcd exited before it was healthy")
		case <-ctx.Done():
			return fmt.Errorf("etcd not healthy after %v", readyTimeout)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// lockedBuffer collects the server's output, written by the process's
// copying goroutines and read when a test fails.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	if b == nil {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
