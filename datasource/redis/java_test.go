package redis

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/javaharness"
	"github.com/sentinelgen/sentinelgen/rules"
)

// javaDir is the Maven project of the Java side.
const javaDir = "../../conformance/redis-java"

// javaService is Sentinel's RedisDataSource running in a JVM
// (conformance/redis-java): it prints the flow rules it has in force after
// each change and writes rules the way Sentinel documents.
type javaService struct {
	stdin io.WriteCloser
	lines chan string
}

// javaFlowRule is what the tests compare of a flow rule Java printed.
type javaFlowRule struct {
	Resource string  `json:"resource"`
	Grade    int     `json:"grade"`
	Count    float64 `json:"count"`
}

// startJava builds the Java side if needed and runs it on key and channel
// of the test server; it is stopped by its PID when the test ends. Without
// java or mvn the test skips, or fails when CI requires it.
func startJava(t *testing.T, key, channel string) *javaService {
	t.Helper()
	addr := requireServer(t)
	if err := javaharness.LookTools(); err != nil {
		if javaharness.Required() {
			t.Fatal(err)
		}
		t.Skipf("comparison with Java Sentinel's RedisDataSource skipped: %v", err)
	}
	dir, err := filepath.Abs(javaDir)
	if err != nil {
		t.Fatal(err)
	}
	cp, built, err := javaharness.Build(dir, "redis-conformance.jar")
	if err != nil {
		t.Fatal(err)
	}
	if built > 0 {
		t.Logf("built the Java side in %v", built)
	}
	host, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command("java", "-Dcsp.sentinel.log.dir="+t.TempDir(), "-Dproject.name=sentinelgen-redis-conformance",
		"-cp", cp, "sentinelgen.redis.Main", host, port, key, channel)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = t.Output()
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	j := &javaService{stdin: stdin, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			j.lines <- sc.Text()
		}
		close(j.lines)
	}()
	return j
}

// waitRules waits for Java to print flow rules that satisfy ok and returns
// them.
func (j *javaService) waitRules(t *testing.T, what string, ok func([]javaFlowRule) bool) []javaFlowRule {
	t.Helper()
	timeout := time.After(30 * time.Second)
	var last string
	for {
		select {
		case line, open := <-j.lines:
			if !open {
				t.Fatalf("the Java service ended waiting for %s (last rules: %s)", what, last)
			}
			text, found := strings.CutPrefix(line, "RULES ")
			if !found {
				continue
			}
			last = text
			var rs []javaFlowRule
			if err := json.Unmarshal([]byte(text), &rs); err != nil {
				t.Fatalf("Java printed %q: %v", text, err)
			}
			if ok(rs) {
				return rs
			}
		case <-timeout:
			t.Fatalf("timed out waiting for Java's %s (last rules: %s)", what, last)
		}
	}
}

// write has Java store and publish content.
func (j *javaService) write(t *testing.T, content string) {
	t.Helper()
	if _, err := io.WriteString(j.stdin, "WRITE "+content+"\n"); err != nil {
		t.Fatal(err)
	}
}

// flowOf lists the flow rules of s as Sentinel's JSON gives them, the
// shape Java prints.
func flowOf(t *testing.T, s rules.Set) []javaFlowRule {
	t.Helper()
	var out []javaFlowRule
	if len(s.Flow) == 0 {
		return out
	}
	data, err := rules.Encode(s.Only(rules.KindFlow), rules.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("Sentinel JSON %s: %v", data, err)
	}
	return out
}

func sameFlow(a, b []javaFlowRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestJavaAndGoShareAKey runs Sentinel's Java RedisDataSource and the Go
// source on one key and channel: Java loads what Go's Write stored and
// published, and Go applies what a Java writer stored and published.
func TestJavaAndGoShareAKey(t *testing.T) {
	c := admin(t)
	app := testApp(t)
	key, channel := app+"-flow-rules", app+"-flow-rules-channel"
	publish(t, c, key, channel, flowJSON("10"))

	java := startJava(t, key, channel)
	java.waitRules(t, "initial rules", func(rs []javaFlowRule) bool {
		return sameFlow(rs, []javaFlowRule{{"createOrder", 1, 10}})
	})

	src := newTestSource(t, func(cfg *Config) { cfg.Kinds = []rules.Kind{rules.KindFlow} })
	w, applied := watch(t, src)

	// Go writes; Java loads the same rules from the message.
	set := w.Property().Get()
	set.Flow = parseFlow(t, `[{"resource":"createOrder","grade":1,"count":20},{"resource":"listOrders","grade":0,"count":4}]`).Flow
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	want := flowOf(t, set)
	java.waitRules(t, "the rules Go wrote", func(rs []javaFlowRule) bool { return sameFlow(rs, want) })

	// Java writes as Sentinel documents; Go applies it.
	java.write(t, `[{"resource":"createOrder","limitApp":"default","grade":1,"count":33.0,"strategy":0,"controlBehavior":0}]`)
	java.waitRules(t, "its own write", func(rs []javaFlowRule) bool {
		return sameFlow(rs, []javaFlowRule{{"createOrder", 1, 33}})
	})
	waitUntil(t, "Go applies Java's write", func() bool {
		s, _ := applied.Last()
		return sameFlow(flowOf(t, s), []javaFlowRule{{"createOrder", 1, 33}})
	})
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}
