package nacos

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// server is a Nacos server started by start-nacos.sh in a home directory of
// its own, stopped by its PID.
type server struct {
	home string
	port int
	args []string // extra server arguments, kept for a restart
	pid  int
}

// addr is the server's HTTP address.
func (s *server) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// startServer starts a Nacos server on free ports with home as its
// directory and waits until it is ready.
func startServer(home string, args ...string) (*server, error) {
	s := &server{home: home, port: freePortTriple(), args: args}
	return s, s.start()
}

// start runs start-nacos.sh on the server's home and port.
func (s *server) start() error {
	script := filepath.Join(nacosDir(), "start-nacos.sh")
	var out, errOut bytes.Buffer
	cmd := exec.Command(script, append([]string{s.home, strconv.Itoa(s.port)}, s.args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s failed: %v\n%s", script, err, errOut.String())
	}
	fields := strings.Fields(out.String())
	if len(fields) == 0 {
		return fmt.Errorf("%s printed no PID", script)
	}
	pid, err := strconv.Atoi(fields[len(fields)-1])
	if err != nil {
		return fmt.Errorf("%s printed %q, not a PID", script, out.String())
	}
	s.pid = pid
	return nil
}

// stop ends the server with stop-nacos.sh, which signals the PID it wrote.
func (s *server) stop() error {
	_ = syscall.Kill(s.pid, syscall.SIGCONT) // a paused JVM cannot stop
	b, err := exec.Command(filepath.Join(nacosDir(), "stop-nacos.sh"), s.home).CombinedOutput()
	if err != nil {
		return fmt.Errorf("stopping Nacos (PID %d): %v\n%s", s.pid, err, b)
	}
	return nil
}

// kill ends the server with SIGKILL and waits until its PID is gone.
func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(s.pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", s.pid, err)
	}
	deadline := time.Now().Add(waitTimeout)
	for syscall.Kill(s.pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("Nacos PID %d still there after SIGKILL", s.pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signal sends sig (SIGSTOP, SIGCONT) to the server's PID.
func (s *server) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(s.pid, sig); err != nil {
		t.Fatalf("signal %v to Nacos PID %d: %v", sig, s.pid, err)
	}
}

// ownServer starts a Nacos server for t alone, in a home of its own, and
// stops it when t ends; it skips or fails t as needServer does when Nacos
// cannot run here.
func ownServer(t *testing.T, args ...string) *server {
	t.Helper()
	needServer(t)
	home, err := os.MkdirTemp("", "nacos-home-")
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	s, err := startServer(home, args...)
	if err != nil {
		os.RemoveAll(home)
		t.Fatal(err)
	}
	t.Logf("own Nacos server on %s (PID %d) ready in %v", s.addr(), s.pid, time.Since(started).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
		os.RemoveAll(home)
	})
	return s
}
