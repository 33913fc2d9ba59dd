// Package scripts holds the test of scripts/newuser.sh, so that the
// new-user run of issue 12 cannot rot: go test ./... (scripts/test.sh)
// runs it.
package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNewUserRun runs scripts/newuser.sh: a fresh clone of this checkout's
// last commit, a module using sentinelgen and sentinelvet through the tool
// directive, and every blind spot of issue 12 §1 (per-platform files, near
// misses, test files, generic types, go vet as the user types). Each step
// of the script checks its own exit status and output; the script exits 1
// when one fails, and the transcript shows which.
func TestNewUserRun(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds a module for three platforms (minutes)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command("bash", "newuser.sh")
	cmd.Env = os.Environ()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	transcript := out.String()
	if err != nil {
		t.Fatalf("newuser.sh: %v\n%s", err, transcript)
	}
	if !strings.Contains(transcript, " steps, 0 failed") {
		t.Fatalf("newuser.sh exited 0 without its summary line:\n%s", transcript)
	}
	t.Log(transcript[strings.LastIndex(transcript, "newuser: "):])
}
