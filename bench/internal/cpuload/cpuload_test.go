package cpuload

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// patience bounds every wait in these tests; generous, because the machine
// running them may be busy.
const patience = 60 * time.Second

// buildHog compiles cmd/cpuhog once per test into the test's temp dir.
func buildHog(t *testing.T) string {
	t.Helper()
	bin, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// cpuTicks reads a process's user plus system CPU time, in clock ticks,
// from /proc/<pid>/stat.
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The command name (field 2) may contain spaces; fields after its
	// closing parenthesis start at field 3 (state).
	rest := string(raw[strings.LastIndexByte(string(raw), ')')+2:])
	fields := strings.Fields(rest)
	utime, err1 := strconv.Atoi(fields[11]) // field 14
	stime, err2 := strconv.Atoi(fields[12]) // field 15
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %q", pid, raw)
	}
	return utime + stime
}

// gone reports whether pid no longer runs: no such process, or a zombie
// waiting to be reaped by a process this test does not control.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(raw)
	state := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[0]
	return state == "Z" || state == "X"
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !gone(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("cpuhog %d still running after %v", pid, patience)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestHogBurnsCPUAndStopLeavesNoProcess(t *testing.T) {
	h, err := Start(buildHog(t), 1, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pid := h.PID()
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })

	// A fifth of a second of CPU time (20 ticks at the usual 100 Hz) is
	// more than starting a Go process takes, so only spinning gets there.
	deadline := time.Now().Add(patience)
	for cpuTicks(t, pid) < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("cpuhog %d used %d ticks of CPU in %v", pid, cpuTicks(t, pid), patience)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Fatalf("cpuhog %d still present after Stop", pid)
	}
}

func TestHogExitsAfterItsLimit(t *testing.T) {
	h, err := Start(buildHog(t), 1, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	pid := h.PID()
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("cpuhog ended with %v, want a clean exit at its limit", err)
		}
	case <-time.After(patience):
		t.Fatalf("cpuhog %d still running %v after a 200ms limit", pid, patience)
	}
}

// TestHogExitsWithItsParent starts the hog from a shell, kills the shell, and
// expects the hog to notice it was orphaned and leave.
func TestHogExitsWithItsParent(t *testing.T) {
	bin := buildHog(t)
	sh := exec.Command("sh", "-c", `"$0" -n 1 -for 10m -parent $$ & echo $!; wait`, bin)
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		sh.Process.Kill()
		sh.Wait()
		t.Fatalf("reading the hog's PID: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("hog PID %q: %v", line, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if gone(pid) {
		t.Fatalf("cpuhog %d exited before its parent did", pid)
	}

	if err := syscall.Kill(sh.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sh.Wait()
	waitGone(t, pid)
}

func TestFromEnvQuietAndBadValues(t *testing.T) {
	t.Setenv(EnvThreads, "")
	if h, err := FromEnv(); h != nil || err != nil {
		t.Fatalf("unset %s: got %v, %v; want no hog", EnvThreads, h, err)
	}
	t.Setenv(EnvThreads, "two")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), EnvThreads) {
		t.Fatalf("%s=two: got %v, want an error naming the variable", EnvThreads, err)
	}
	t.Setenv(EnvThreads, "1")
	t.Setenv(EnvLimit, "soon")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), EnvLimit) {
		t.Fatalf("%s=soon: got %v, want an error naming the variable", EnvLimit, err)
	}
}

func TestFromEnvStartsAndStopsAHog(t *testing.T) {
	t.Setenv(EnvThreads, "1")
	t.Setenv(EnvLimit, "1m")
	t.Setenv(EnvBinary, buildHog(t))
	h, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	pid := h.PID()
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if h.Threads() != 1 || gone(pid) {
		t.Fatalf("hog %d with %d threads: want one running thread", pid, h.Threads())
	}
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Fatalf("cpuhog %d still present after Stop", pid)
	}
}
