package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/javaharness"
)

// javaDir is the Maven project of the Java side.
const javaDir = "java"

// harness is the built Java program: the java command line up to the
// program's arguments.
type harness struct {
	java []string
	// built says how long building took, zero when the jar was up to date.
	built time.Duration
}

var (
	harnessOnce sync.Once
	harnessVal  *harness
	harnessErr  error
)

// javaHarness returns the Java program, building it with Maven when the
// jar is missing or older than its sources. Without java or mvn the test
// skips, or fails when CI requires it.
func javaHarness(t testing.TB) *harness {
	t.Helper()
	harnessOnce.Do(func() { harnessVal, harnessErr = buildHarness() })
	if harnessErr != nil {
		if _, missing := harnessErr.(javaharness.MissingTool); missing && !javaharness.Required() {
			t.Skipf("comparison with Java Sentinel skipped: %v (install a JDK 17 and Maven, e.g. apt-get install openjdk-17-jdk-headless maven; CI=true or SENTINELGEN_REQUIRE_SERVERS=1 makes this a failure)", harnessErr)
		}
		t.Fatal(harnessErr)
	}
	return harnessVal
}

func buildHarness() (*harness, error) {
	if err := javaharness.LookTools(); err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(javaDir)
	if err != nil {
		return nil, err
	}
	cp, built, err := javaharness.Build(dir, "conformance.jar")
	if err != nil {
		return nil, err
	}
	h := &harness{built: built}
	jar := filepath.Join(dir, "target", "conformance.jar") // also the clock agent
	logDir, err := os.MkdirTemp("", "sentinelgen-conformance-logs")
	if err != nil {
		return nil, err
	}
	h.java = []string{"java", "-javaagent:" + jar, "-Dcsp.sentinel.log.dir=" + logDir,
		"-Dproject.name=sentinelgen-conformance", "-cp", cp,
		"sentinelgen.conformance.Main"}
	return h, nil
}

// run runs the Java program with args and returns its standard output.
func (h *harness) run(args ...string) ([]byte, error) {
	cmd := exec.Command(h.java[0], append(append([]string(nil), h.java[1:]...), args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("java %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// replay runs the scenario files through sentinel-core, the k-th starting
// at startMs + k*gapMs, and returns the output lines of each file by name,
// indexed by scenario line number.
func (h *harness) replay(files []string) (map[string]map[int]string, error) {
	args := append([]string{"replay", strconv.Itoa(startMs), strconv.Itoa(gapMs)}, files...)
	out, err := h.run(args...)
	if err != nil {
		return nil, err
	}
	res := map[string]map[int]string{}
	var cur map[int]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "== "); ok {
			cur = map[int]string{}
			res[name] = cur
			continue
		}
		// Sentinel prints a few lines of its own (log setup) at start.
		num, text, ok := strings.Cut(line, " ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || cur == nil {
			continue
		}
		cur[n] = text
	}
	return res, sc.Err()
}
