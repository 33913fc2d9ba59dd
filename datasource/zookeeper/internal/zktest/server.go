// Package zktest starts real ZooKeeper servers for the tests of package
// zookeeper: Debian's zookeeper package (zookeeperd) run standalone on
// 127.0.0.1, each with a free port and a temporary data directory, stopped
// by its PID.
package zktest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// JarDir is where Debian's zookeeper package installs its jars.
const JarDir = "/usr/share/java"

// Lookup returns the classpath that runs a ZooKeeper server, or an error
// saying what is missing: java in PATH and the zookeeper package's jar (its
// manifest names the libraries it needs).
func Lookup() (string, error) {
	if _, err := exec.LookPath("java"); err != nil {
		return "", errors.New("java not found in PATH")
	}
	jar := filepath.Join(JarDir, "zookeeper.jar")
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("no %s (apt-get install zookeeperd)", jar)
	}
	cp := []string{jar}
	// The server logs through SLF4J; without a binding it warns once and
	// logs nothing, which is what a test wants.
	if nop := filepath.Join(JarDir, "slf4j-nop.jar"); fileExists(nop) {
		cp = append(cp, nop)
	}
	return strings.Join(cp, string(os.PathListSeparator)), nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Server is a ZooKeeper server the test started; Stop and Start keep its
// port and data, as a restart of a real server would.
type Server struct {
	// Addr is the server's client address, 127.0.0.1:port.
	Addr      string
	classpath string
	dir       string
	cmd       *exec.Cmd
	exited    chan struct{}
}

// Start starts a server on a free port with its data in a new directory
// under parent, and waits until it answers.
func Start(classpath, parent string) (*Server, error) {
	dir, err := os.MkdirTemp(parent, "zk-")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), classpath: classpath, dir: dir}
	cfg := strings.Join([]string{
		"tickTime=500",
		"initLimit=10",
		"syncLimit=5",
		"dataDir=" + filepath.Join(dir, "data"),
		"clientPort=" + strconv.Itoa(port),
		"clientPortAddress=127.0.0.1",
		"admin.enableServer=false",
		"4lw.commands.whitelist=srvr",
		"",
	}, "\n")
	if err := os.WriteFile(filepath.Join(dir, "zoo.cfg"), []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	return s, s.Start()
}

// Start runs the server again after Stop, on the same port and data.
func (s *Server) Start() error {
	log, err := os.Create(filepath.Join(s.dir, "server.log"))
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command("java", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Dzookeeper.jmx.log4j.disable=true", "-cp", s.classpath,
		"org.apache.zookeeper.server.ZooKeeperServerMain", filepath.Join(s.dir, "zoo.cfg"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting ZooKeeper: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	go func() { _ = cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for !s.answers() {
		select {
		case <-s.exited:
			out, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("ZooKeeper exited at start:\n%s", out)
		default:
		}
		if time.Now().After(deadline) {
			s.Stop()
			return fmt.Errorf("ZooKeeper on %s did not answer within 30 s", s.Addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// answers reports whether the server serves requests: its answer to
// "srvr" gives its mode only then.
func (s *Server) answers() bool {
	c, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("srvr")); err != nil {
		return false
	}
	b, _ := io.ReadAll(c)
	return strings.Contains(string(b), "Mode: standalone")
}

// Stop kills the server by its PID and waits until it has exited.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = syscall.Kill(s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.exited
	s.cmd = nil
}

// Freeze stops the server's process (SIGSTOP): it keeps its connections
// open and answers nothing, as a server stuck in a long pause would.
func (s *Server) Freeze() { _ = s.cmd.Process.Signal(syscall.SIGSTOP) }

// Thaw lets a frozen server run again (SIGCONT).
func (s *Server) Thaw() { _ = s.cmd.Process.Signal(syscall.SIGCONT) }

// Remove stops the server and deletes its data.
func (s *Server) Remove() {
	s.Stop()
	os.RemoveAll(s.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
