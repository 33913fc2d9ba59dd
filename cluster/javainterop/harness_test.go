package javainterop

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/javaharness"
)

var (
	buildOnce sync.Once
	javaCmd   []string
	buildErr  error
)

// java returns the command line that runs the harness's main class,
// building the Maven project first when needed. Without java or Maven the
// test skips, or fails when CI requires it.
func java(t testing.TB) []string {
	t.Helper()
	buildOnce.Do(func() {
		if buildErr = javaharness.LookTools(); buildErr != nil {
			return
		}
		dir, err := filepath.Abs(filepath.Join("..", "..", "conformance", "cluster-java"))
		if err != nil {
			buildErr = err
			return
		}
		cp, _, err := javaharness.Build(dir, "cluster-conformance.jar")
		if err != nil {
			buildErr = err
			return
		}
		logDir, err := os.MkdirTemp("", "sentinelgen-cluster-java-logs")
		if err != nil {
			buildErr = err
			return
		}
		javaCmd = []string{"java", "-Dcsp.sentinel.log.dir=" + logDir, "-Dproject.name=javainterop",
			"-cp", cp, "sentinelgen.ClusterHarness"}
	})
	if buildErr != nil {
		if _, missing := buildErr.(javaharness.MissingTool); missing && !javaharness.Required() {
			t.Skipf("Java token server tests skipped: %v (CI=true or SENTINELGEN_REQUIRE_SERVERS=1 makes this a failure)", buildErr)
		}
		t.Fatal(buildErr)
	}
	return javaCmd
}

// process is a running harness: commands go to its stdin, answers come
// back one line each.
type process struct {
	t     testing.TB
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	mu    sync.Mutex
	err   strings.Builder
}

// startJava runs the harness with args, killing it by PID when t ends.
func startJava(t testing.TB, args ...string) *process {
	t.Helper()
	line := append(append([]string(nil), java(t)...), args...)
	cmd := exec.Command(line[0], line[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{t: t, cmd: cmd, lines: make(chan string, 1024)}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.err.Write(b)
	})
	if p.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go scanLines(stdout, p.lines)
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			p.mu.Lock()
			t.Logf("java %v stderr:\n%s", args[0], p.err.String())
			p.mu.Unlock()
		}
	})
	return p
}

// scanLines sends the lines of r to lines, and closes it at r's end.
func scanLines(r io.Reader, lines chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines <- sc.Text()
	}
	close(lines)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// next returns the next line of output, failing t after within.
func (p *process) next(within time.Duration) string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("the Java harness exited: %v", p.cmd.ProcessState)
		}
		return l
	case <-time.After(within):
		p.t.Fatalf("no answer from the Java harness within %v", within)
	}
	return ""
}

// expect reads lines until one equals want.
func (p *process) expect(want string, within time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if l := p.next(time.Until(deadline)); l == want {
			return
		}
	}
}

// do sends one command and returns its answer line.
func (p *process) do(format string, args ...any) string {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.in, format+"\n", args...); err != nil {
		p.t.Fatal(err)
	}
	return p.next(20 * time.Second)
}

// freePort returns a free port on 127.0.0.1.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// answerDelay is what delayingProxy adds to every answer. Java's token
// client (NettyTransportClient.sendRequest in 1.8.9) writes a request
// before it registers the promise its answer completes, and drops an answer
// that arrives in between: on loopback a fast server hits that window now
// and then, and the call times out. Any real network's round trip is longer
// than the window; the proxy gives loopback one.
const answerDelay = time.Millisecond

// delayingProxy forwards connections to target, delaying what the server
// sends back by answerDelay.
func delayingProxy(t testing.TB, target string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			client, err := l.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			t.Cleanup(func() { client.Close(); server.Close() })
			go func() { io.Copy(server, client); server.Close() }()
			go func() {
				buf := make([]byte, 4096)
				for {
					n, err := server.Read(buf)
					if n > 0 {
						time.Sleep(answerDelay)
						if _, werr := client.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				client.Close()
			}()
		}
	}()
	return l.Addr().String()
}
