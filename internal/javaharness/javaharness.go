// Package javaharness builds the Maven projects that the Java comparison
// tests run (conformance/java, conformance/transport-java,
// conformance/cluster-java, conformance/zookeeper-java,
// conformance/redis-java): each packages a jar and writes its dependency
// classpath to target/classpath.txt.
package javaharness

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Required reports whether a missing JDK or Maven must fail a test rather
// than skip it: under CI, as for the Redis and etcd tests.
func Required() bool {
	return os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != ""
}

// MissingTool is the error of a java or mvn command not found in PATH.
type MissingTool string

func (m MissingTool) Error() string { return string(m) + " not found in PATH" }

// LookTools returns a MissingTool error unless java and mvn are in PATH.
func LookTools() error {
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			return MissingTool(tool)
		}
	}
	return nil
}

// Build returns the classpath of the Maven project in dir (its jar
// target/jarName, then its dependencies), running `mvn package` first when
// the jar or the classpath file is missing or older than a source. Maven
// runs offline first, so that after the first resolve nothing is fetched.
// built is how long building took, zero when the outputs were up to date.
func Build(dir, jarName string) (classpath string, built time.Duration, err error) {
	jar := filepath.Join(dir, "target", jarName)
	cpFile := filepath.Join(dir, "target", "classpath.txt")
	if stale, err := outdated(dir, jar, cpFile); err != nil {
		return "", 0, err
	} else if stale {
		start := time.Now()
		var out bytes.Buffer
		for _, args := range [][]string{{"-q", "-B", "-o", "package"}, {"-q", "-B", "package"}} {
			out.Reset()
			cmd := exec.Command("mvn", args...)
			cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
			if err = cmd.Run(); err == nil {
				break
			}
		}
		if err != nil {
			return "", 0, fmt.Errorf("building the Java harness (mvn package in %s): %v\n%s", dir, err, out.String())
		}
		built = time.Since(start)
		// Maven leaves up-to-date outputs untouched: mark them as checked
		// now, or every run would build again.
		now := time.Now()
		for _, o := range []string{jar, cpFile} {
			if err := os.Chtimes(o, now, now); err != nil {
				return "", 0, err
			}
		}
	}
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		return "", 0, err
	}
	return jar + string(os.PathListSeparator) + strings.TrimSpace(string(cp)), built, nil
}

// outdated reports whether an output is missing or older than a file of
// dir outside its target directory.
func outdated(dir string, outputs ...string) (bool, error) {
	var oldest time.Time
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
