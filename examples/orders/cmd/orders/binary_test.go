package main

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// startBinary builds the example, starts it with args (for at most a
// minute) and reads its output until addrRE matches a line, returning the
// match's first group; what names the address in the failure message. The
// rest of the output is drained, and the process is killed when the test
// ends.
func startBinary(t *testing.T, addrRE *regexp.Regexp, what string, args ...string) string {
	t.Helper()
	return startBinaryAll(t, []*regexp.Regexp{addrRE}, what, args...)[0]
}

// startBinaryAll is startBinary reading until each of res has matched a
// line, in order; it returns each match's first group.
func startBinaryAll(t *testing.T, res []*regexp.Regexp, what string, args ...string) []string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "orders")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := exec.CommandContext(ctx, bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); cancel() })
	sc := bufio.NewScanner(stdout)
	var found []string
	for sc.Scan() {
		if m := res[len(found)].FindStringSubmatch(sc.Text()); m != nil {
			found = append(found, m[1])
			if len(found) == len(res) {
				go func() { _, _ = io.Copy(io.Discard, stdout) }()
				return found
			}
		}
	}
	t.Fatalf("the example never said where %s", what)
	return nil
}
