package transport

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/javaharness"
)

// javaDir is the Maven project of Sentinel's side of the comparison.
const javaDir = "../conformance/transport-java"

var (
	javaOnce sync.Once
	javaCmd  []string // java ... sentinelgen.transport.Main
	javaErr  error
)

// javaMain returns the command line of the Java program up to its
// arguments, building it with Maven when the jar is missing or older than
// its sources (offline first: after the first resolve nothing is fetched).
func javaMain(t *testing.T) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs Java Sentinel")
	}
	if err := javaharness.LookTools(); err != nil {
		if javaharness.Required() {
			t.Fatalf("%v (scripts/servers.sh installs it)", err)
		}
		t.Skipf("comparison with Java Sentinel skipped: %v (apt-get install openjdk-17-jdk-headless maven)", err)
	}
	javaOnce.Do(func() { javaCmd, javaErr = buildJava() })
	if javaErr != nil {
		t.Fatal(javaErr)
	}
	return javaCmd
}

func buildJava() ([]string, error) {
	dir, err := filepath.Abs(javaDir)
	if err != nil {
		return nil, err
	}
	cp, _, err := javaharness.Build(dir, "transport-conformance.jar")
	if err != nil {
		return nil, err
	}
	return []string{"java", "-cp", cp}, nil
}

// javaParse feeds answers to the Java program's parse command and returns
// what Sentinel's parsers read, re-serialised by fastjson.
func javaParse(t *testing.T, answers map[string]string) string {
	t.Helper()
	java := javaMain(t)
	in, err := jsonString(answers)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(java[0], append(append([]string(nil), java[1:]...),
		"-Dcsp.sentinel.log.dir="+t.TempDir(), "sentinelgen.transport.Main", "parse")...)
	cmd.Stdin = strings.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("Java parse: %v\n%s", err, stderr.String())
	}
	// Sentinel's logger prints its settings first; the answer is the last line.
	out := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	return out[len(out)-1]
}

// javaServer is Sentinel's own simple-http command center running a
// workload the test sends.
type javaServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Scanner
}

// startJavaServer starts Sentinel with rules (JSON object of kind →
// array), its command center on port and heartbeats to dashboard; props
// are more -Dkey=value settings.
func startJavaServer(t *testing.T, rules, app string, port int, dashboard string, props ...string) *javaServer {
	t.Helper()
	java := javaMain(t)
	args := append(append([]string(nil), java[1:]...),
		"-Dcsp.sentinel.log.dir="+t.TempDir(), "-Dproject.name="+app,
		fmt.Sprintf("-Dcsp.sentinel.api.port=%d", port), "-Dcsp.sentinel.dashboard.server="+dashboard,
		"-Dcsp.sentinel.heartbeat.interval.ms=1000", "-Dcsp.sentinel.heartbeat.client.ip=127.0.0.1")
	args = append(append(args, props...), "sentinelgen.transport.Main", "serve")
	cmd := exec.Command(java[0], args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	j := &javaServer{t: t, cmd: cmd, stdin: stdin, lines: bufio.NewScanner(stdout)}
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	if _, err := io.WriteString(stdin, rules+"\n"); err != nil {
		t.Fatal(err)
	}
	j.expect("ready")
	// Sentinel's command center binds its port from a thread of its own,
	// after the program says ready: wait until it accepts connections.
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Java's command center never listened on %s: %v", addr, err)
		}
	}
	return j
}

func (j *javaServer) expect(want string) {
	j.t.Helper()
	for j.lines.Scan() {
		if strings.TrimSpace(j.lines.Text()) == want {
			return
		}
	}
	j.t.Fatalf("Java ended before saying %q", want)
}

// run sends one workload line ("pass RES N", "fail RES N") and waits for it.
func (j *javaServer) run(line string) {
	j.t.Helper()
	if _, err := io.WriteString(j.stdin, line+"\n"); err != nil {
		j.t.Fatal(err)
	}
	j.expect("done")
}
