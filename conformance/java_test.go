package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// javaDir is the Maven project of the Java side.
const javaDir = "java"

// requireServers reports whether a missing Java toolchain must fail the
// test rather than skip it: under CI, as for the Redis and etcd tests.
func requireServers() bool {
	return os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != ""
}

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
		if _, missing := harnessErr.(missingTool); missing && !requireServers() {
			t.Skipf("comparison with Java Sentinel skipped: %v (install a JDK 17 and Maven, e.g. apt-get install openjdk-17-jdk-headless maven; CI=true or SENTINELGEN_REQUIRE_SERVERS=1 makes this a failure)", harnessErr)
		}
		t.Fatal(harnessErr)
	}
	return harnessVal
}

// missingTool is the error of a missing java or mvn command.
type missingTool string

func (m missingTool) Error() string { return string(m) + " not found in PATH" }

func buildHarness() (*harness, error) {
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, missingTool(tool)
		}
	}
	dir, err := filepath.Abs(javaDir)
	if err != nil {
		return nil, err
	}
	jar := filepath.Join(dir, "target", "conformance.jar")
	cpFile := filepath.Join(dir, "target", "classpath.txt")
	h := &harness{}
	if stale, err := outdated(dir, jar); err != nil {
		return nil, err
	} else if stale {
		start := time.Now()
		cmd := exec.Command("mvn", "-q", "-B", "package")
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("building the Java harness (mvn -q -B package in %s): %v\n%s", dir, err, out.String())
		}
		h.built = time.Since(start)
		// Maven leaves an up-to-date jar untouched; mark it as checked now
		// so that the next run does not build again.
		now := time.Now()
		if err := os.Chtimes(jar, now, now); err != nil {
			return nil, err
		}
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		return nil, err
	}
	logDir, err := os.MkdirTemp("", "sentinelgen-conformance-logs")
	if err != nil {
		return nil, err
	}
	h.java = []string{"java", "-javaagent:" + jar, "-Dcsp.sentinel.log.dir=" + logDir,
		"-Dproject.name=sentinelgen-conformance", "-cp", jar + string(os.PathListSeparator) + strings.TrimSpace(string(cp)),
		"sentinelgen.conformance.Main"}
	return h, nil
}

// outdated reports whether the jar or the classpath file is missing or
// older than pom.xml or a source file.
func outdated(dir string, outputs ...string) (bool, error) {
	oldest := time.Time{}
	for _, o := range outputs {
		fi, err := os.Stat(o)
		if err != nil {
			return true, nil
		}
		if oldest.IsZero() || fi.ModTime().Before(oldest) {
			oldest = fi.ModTime()
		}
	}
	stale := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "target" {
			return filepath.SkipDir
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() && fi.ModTime().After(oldest) {
			stale = true
		}
		return nil
	})
	return stale, err
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
