// Package scripts holds the test of scripts/newuser.sh, so that the
// new-user run cannot rot: go test ./... (scripts/test.sh) runs it.
package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNewUserRun runs scripts/newuser.sh: a fresh clone of this checkout's
// last commit, a module that adds sentinelgen and sentinelvet with README's
// install commands, and every blind spot a directive can fall into
// (per-platform files, near misses, test files, generic types, go vet as the
// user types). Each step of the script checks its own exit status and
// output; the script exits 1 when one fails, and the transcript shows which.
// The transcript must show README's install commands run as they are.
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
	cmds := readmeInstallCommands(t)
	at := 0
	for _, c := range cmds {
		i := strings.Index(transcript[at:], "\n$ "+c+"\n")
		if i < 0 {
			t.Fatalf("the transcript does not show README's install command %q run (after the ones before it):\n%s", c, transcript)
		}
		at += i + 1
	}
	t.Log(transcript[strings.LastIndex(transcript, "newuser: "):])
}

// readmeInstallCommands returns the lines of README.md's sh block after its
// install-from-checkout marker: the commands a user runs to add the tool.
func readmeInstallCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "<!-- install-from-checkout")
	if !ok {
		t.Fatal("README.md has no install-from-checkout marker")
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	if !ok {
		t.Fatal("README.md's install-from-checkout marker is not followed by a sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds []string
	for _, l := range strings.Split(block, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) == 0 {
		t.Fatal("README.md's install block is empty")
	}
	return cmds
}

// The install block holds the commands the docs promise, and no go get of
// the unpublished module (which the module proxy cannot serve).
func TestReadmeInstallCommands(t *testing.T) {
	cmds := readmeInstallCommands(t)
	joined := strings.Join(cmds, "\n")
	for _, want := range []string{"-replace=github.com/sentinelgen/sentinelgen=../sentinelgen",
		"-tool=github.com/sentinelgen/sentinelgen/cmd/sentinelgen", "go mod tidy"} {
		if !strings.Contains(joined, want) {
			t.Errorf("README's install block lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "go get") {
		t.Errorf("README's install block uses go get, which asks the proxy for an unpublished module:\n%s", joined)
	}
}
