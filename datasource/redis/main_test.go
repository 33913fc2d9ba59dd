package redis

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// server is the redis-server TestMain started for the package's tests; nil
// when none could be, with noServer saying why.
var server *redisServer

var noServer string

// TestMain starts one real redis-server for the package's tests and stops
// it by its PID when they are done.
func TestMain(m *testing.M) {
	os.Exit(runWithServer(m))
}

// quietLogger drops go-redis's own log lines: tests that stop Redis would
// otherwise print one per failed dial. The source reports through its
// slog.Logger and datasource.ReportError, which the tests inspect.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func runWithServer(m *testing.M) int {
	goredis.SetLogger(quietLogger{})
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		noServer = fmt.Sprintf("redis-server not found: %v", err)
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "datasource-redis-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	server = &redisServer{bin: bin, dir: dir, port: port, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
	if err := server.start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer server.kill()
	return m.Run()
}

// requireServer returns the test server's address, skipping the test when
// there is none, unless CI or SENTINELGEN_REQUIRE_SERVERS is set: there a
// missing server is a failure.
func requireServer(t *testing.T) string {
	t.Helper()
	if server == nil {
		if os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != "" {
			t.Fatalf("%s (CI is set, so this is a failure)", noServer)
		}
		t.Skip(noServer)
	}
	return server.addr
}

// redisServer is a redis-server process on 127.0.0.1 without automatic
// persistence; its data directory survives a kill, so a SAVEd snapshot is
// loaded again by the next start.
type redisServer struct {
	bin, dir, addr string
	port           int
	cmd            *exec.Cmd
}

// start runs the server in dir, on its port, and waits until it answers.
func (s *redisServer) start() error {
	cmd, err := s.startIn(s.dir, s.port)
	s.cmd = cmd
	return err
}

// startIn runs a redis-server with data directory dir on port and waits
// until it answers; the caller stops it by its PID.
func (s *redisServer) startIn(dir string, port int) (*exec.Cmd, error) {
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
		"--dir", dir, "--dbfilename", "dump.rdb", "--logfile", filepath.Join(dir, "redis-"+strconv.Itoa(port)+".log"))
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting redis-server: %w", err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	c := goredis.NewClient(&goredis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("redis-server on %s does not answer PING", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd, nil
}

// kill stops the server with SIGKILL, as a crash would, by its PID.
func (s *redisServer) kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// freePort asks the kernel for a port nobody listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
