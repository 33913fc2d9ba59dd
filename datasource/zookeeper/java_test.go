package zookeeper

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/internal/javaharness"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// javaDir is the Maven project of a Java Sentinel service reading its flow
// rules with Sentinel's ZookeeperDataSource.
const javaDir = "../../conformance/zookeeper-java"

// javaService is the running Java program: its stdin and the lines it
// prints.
type javaService struct {
	stdin io.WriteCloser
	lines chan string
}

// startJava builds the Java harness when needed and runs it on path; it is
// stopped by its PID when the test ends.
func startJava(t *testing.T, addr, path string) *javaService {
	t.Helper()
	if err := javaharness.LookTools(); err != nil {
		if javaharness.Required() {
			t.Fatalf("%v (scripts/servers.sh installs it)", err)
		}
		t.Skipf("comparison with Java Sentinel skipped: %v (apt-get install openjdk-17-jdk-headless maven)", err)
	}
	dir, err := filepath.Abs(javaDir)
	if err != nil {
		t.Fatal(err)
	}
	cp, _, err := javaharness.Build(dir, "zookeeper-conformance.jar")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("java", "-cp", cp, "-Dcsp.sentinel.log.dir="+t.TempDir(), "sentinelgen.zookeeper.Main", addr, path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = t.Output()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	j := &javaService{stdin: stdin, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			j.lines <- sc.Text()
		}
		close(j.lines)
	}()
	j.expect(t, func(l string) bool { return l == "ready" })
	return j
}

// expect waits for a line that match accepts, failing the test when the
// program exits or prints none in time.
func (j *javaService) expect(t *testing.T, match func(string) bool) string {
	t.Helper()
	timeout := time.After(2 * waitTimeout) // a cold JVM is slow on a busy machine
	for {
		select {
		case l, ok := <-j.lines:
			if !ok {
				t.Fatal("the Java program exited")
			}
			if match(l) {
				return l
			}
		case <-timeout:
			t.Fatal("timed out waiting for the Java program")
		}
	}
}

// javaFlow is a flow rule as Java's FlowRuleManager holds it.
type javaFlow struct {
	Resource string  `json:"resource"`
	Count    float64 `json:"count"`
	Grade    int     `json:"grade"`
	LimitApp string  `json:"limitApp"`
}

// rulesWith waits until Java prints flow rules whose counts are counts, in
// any order (FlowRuleManager keeps them by resource in a map), and returns
// them sorted by resource.
func (j *javaService) rulesWith(t *testing.T, counts ...float64) []javaFlow {
	t.Helper()
	var got []javaFlow
	j.expect(t, func(l string) bool {
		var ok bool
		got, ok = rulesLine(t, l, counts)
		return ok
	})
	slices.SortFunc(got, func(a, b javaFlow) int { return strings.Compare(a.Resource, b.Resource) })
	return got
}

// rulesLine reports whether l is a "rules" line whose counts are counts, in
// any order, and returns its rules.
func rulesLine(t *testing.T, l string, counts []float64) ([]javaFlow, bool) {
	t.Helper()
	text, ok := strings.CutPrefix(l, "rules ")
	if !ok {
		return nil, false
	}
	var got []javaFlow
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("Java printed %q: %v", l, err)
	}
	var cs []float64
	for _, r := range got {
		cs = append(cs, r.Count)
	}
	slices.Sort(cs)
	return got, slices.Equal(cs, slices.Sorted(slices.Values(counts)))
}

// TestJavaAndGoShareANode runs Sentinel's Java ZookeeperDataSource and the
// Go source on one node: what the Go source writes, Java loads, and what
// Java's Curator client writes, the Go source applies.
func TestJavaAndGoShareANode(t *testing.T) {
	addr := needServer(t)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	// Java's data source creates the node, empty, when it is missing.
	java := startJava(t, addr, path)
	src := newTestSource(t, addr, func(c *Config) { c.Kinds = []rules.Kind{rules.KindFlow} })
	w, applied := watch(t, src)
	if s, n := applied.Last(); n != 1 || !s.IsEmpty() || w.LastError() != nil {
		t.Fatalf("Go read %+v (%d sets, LastError %v) from the node Java created, want one empty set", s, n, w.LastError())
	}

	set := parseFlow(t, `[{"resource":"createOrder","grade":1,"count":42,"limitApp":"default"},{"resource":"payOrder","grade":0,"count":7,"limitApp":"default"}]`)
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got := java.rulesWith(t, 42, 7)
	want := []javaFlow{{"createOrder", 42, 1, "default"}, {"payOrder", 7, 0, "default"}}
	if !slices.Equal(got, want) {
		t.Errorf("Java loaded %+v, want %+v", got, want)
	}

	// Java writes the node; the Go source applies it.
	fmt.Fprintln(java.stdin, `write [{"resource":"createOrder","grade":1,"count":77,"limitApp":"default","strategy":0,"controlBehavior":0}]`)
	// Java prints "written" from its main thread and its rules from its
	// data source's listener thread: either may come first.
	written, loaded := false, false
	java.expect(t, func(l string) bool {
		written = written || l == "written"
		if _, ok := rulesLine(t, l, []float64{77}); ok {
			loaded = true
		}
		return written && loaded
	})
	waitUntil(t, "Java's write is applied by Go", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{77})
	})
	if s, _ := applied.Last(); s.Flow[0].Resource != "createOrder" || s.Flow[0].Grade != runtime.FlowGradeQPS {
		t.Errorf("Go read %+v from Java's write", s.Flow[0])
	}
}
