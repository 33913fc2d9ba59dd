package nacos

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
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
	s := &server{home: home, port: nacostest.FreePortTriple(), args: args}
	return s, s.start()
}

// start runs start-nacos.sh on the server's home and port.
func (s *server) start() error {
	script := filepath.Join(nacostest.Dir(), "start-nacos.sh")
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
// Stopping it again does nothing.
func (s *server) stop() error {
	if s.pid <= 0 {
		return nil
	}
	_ = syscall.Kill(s.pid, syscall.SIGCONT) // a paused JVM cannot stop
	b, err := exec.Command(filepath.Join(nacostest.Dir(), "stop-nacos.sh"), s.home).CombinedOutput()
	if err != nil {
		return fmt.Errorf("stopping Nacos (PID %d): %v\n%s", s.pid, err, b)
	}
	s.pid = 0
	return nil
}

// kill ends the server with SIGKILL and waits until its PID is gone.
func (s *server) kill(t *testing.T) {
	t.Helper()
	if s.pid <= 0 {
		t.Fatal("no Nacos running to kill")
	}
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
	s.pid = 0
}

// signal sends sig (SIGSTOP, SIGCONT) to the server's PID.
func (s *server) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if s.pid <= 0 {
		t.Fatal("no Nacos running to signal")
	}
	if err := syscall.Kill(s.pid, sig); err != nil {
		t.Fatalf("signal %v to Nacos PID %d: %v", sig, s.pid, err)
	}
}

// ownServerArgs are the tests that run a Nacos server of their own, with
// its extra arguments.
var ownServerArgs = map[string][]string{
	"TestAuth":                        nacostest.AuthArgs(),
	"TestNacosPausedForThirtySeconds": nil,
	"TestNacosKilledForThirtySeconds": nil,
}

// pendingServer is a server being started for a test in the background.
type pendingServer struct {
	done  chan struct{}
	home  string
	srv   *server
	err   error
	ready time.Duration
}

// start starts the server in a new home and closes done.
func (p *pendingServer) start(args []string) {
	defer close(p.done)
	started := time.Now()
	if p.home, p.err = os.MkdirTemp("", "nacos-home-"); p.err != nil {
		return
	}
	p.srv, p.err = startServer(p.home, args...)
	p.ready = time.Since(started)
}

// ownServers are the servers startOwnServers started, by test name.
var ownServers = map[string]*pendingServer{}

// startOwnServers starts, side by side, the servers of the tests -run
// selects, so that they are ready when those parallel tests start after
// the others; it returns a function that stops them all. With -race it
// starts none: the drills skip, and a server starting while the other tests
// run slows the SDK's first connection enough for it to connect in the
// background, where it races with itself (see startDrill); the auth test
// starts its own.
func startOwnServers() (stopAll func()) {
	pattern := flag.Lookup("test.run").Value.String()
	for name, args := range ownServerArgs {
		if raceDetector {
			break
		}
		if ok, err := regexp.MatchString(strings.Split(pattern, "/")[0], name); err != nil || !ok {
			continue
		}
		p := &pendingServer{done: make(chan struct{})}
		ownServers[name] = p
		go p.start(args)
	}
	return func() {
		for _, p := range ownServers {
			<-p.done
			if p.srv != nil {
				if err := p.srv.stop(); err != nil {
					fmt.Fprintln(os.Stderr, err)
				}
			}
			if p.home != "" {
				os.RemoveAll(p.home)
			}
		}
	}
}

// ownServer returns the Nacos server of t alone (see ownServerArgs), started
// in the background by TestMain, and stops it when t ends; it skips or fails
// t as needServer does when Nacos cannot run here.
func ownServer(t *testing.T) *server {
	t.Helper()
	needServer(t)
	args, ok := ownServerArgs[t.Name()]
	if !ok {
		t.Fatalf("no server of its own for %s: add it to ownServerArgs", t.Name())
	}
	p, ok := ownServers[t.Name()]
	if !ok { // not started in the background: start it now
		p = &pendingServer{done: make(chan struct{})}
		p.start(args)
		t.Cleanup(func() { os.RemoveAll(p.home) })
	}
	<-p.done
	if p.err != nil {
		t.Fatal(p.err)
	}
	t.Logf("own Nacos server on %s (PID %d) ready in %v", p.srv.addr(), p.srv.pid, p.ready.Round(time.Millisecond))
	t.Cleanup(func() {
		if err := p.srv.stop(); err != nil {
			t.Error(err)
		}
	})
	return p.srv
}
