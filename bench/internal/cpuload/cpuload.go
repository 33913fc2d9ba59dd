// Package cpuload starts and stops the CPU hog (cmd/cpuhog) behind the
// benchmarks' loaded mode: another process keeping N threads busy, so that
// figures can be taken on a loaded machine and the load is the same from one
// run to the next.
package cpuload

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Environment variables read by FromEnv.
const (
	// EnvThreads is the number of busy hog threads; unset, empty or 0 means
	// no hog (the quiet mode).
	EnvThreads = "BENCH_LOAD"
	// EnvBinary names a prebuilt cpuhog binary; unset, FromEnv builds one.
	EnvBinary = "BENCH_HOG_BIN"
	// EnvLimit bounds the hog's life (a time.Duration); DefaultLimit when unset.
	EnvLimit = "BENCH_LOAD_FOR"
)

// DefaultLimit is how long a hog lives at most unless EnvLimit says otherwise:
// longer than one process of the full suite, short enough that a hog whose
// stop was missed does not load the machine for long.
const DefaultLimit = 30 * time.Minute

// hogPackage is cmd/cpuhog's import path, for Build.
const hogPackage = "github.com/sentinelgen/sentinelgen/bench/cmd/cpuhog"

// Hog is a running cpuhog process.
type Hog struct {
	cmd     *exec.Cmd
	threads int
	tempDir string // removed by Stop when Build made the binary
}

// PID is the hog's process ID.
func (h *Hog) PID() int { return h.cmd.Process.Pid }

// Threads is the number of busy threads the hog runs.
func (h *Hog) Threads() int { return h.threads }

// Build compiles cmd/cpuhog into dir and returns the binary's path. It runs
// `go build` from the current directory, which must lie inside the bench
// module (as it does under go test and run.sh).
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "cpuhog")
	out, err := exec.Command("go", "build", "-o", bin, hogPackage).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building %s: %v: %s", hogPackage, err, out)
	}
	return bin, nil
}

// Start runs bin with threads busy threads; the hog exits by itself after
// limit, or when this process dies.
func Start(bin string, threads int, limit time.Duration) (*Hog, error) {
	if threads < 1 {
		return nil, fmt.Errorf("cpuload: %d threads, want at least 1", threads)
	}
	cmd := exec.Command(bin, "-n", strconv.Itoa(threads), "-for", limit.String(), "-parent", strconv.Itoa(os.Getpid()))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	return &Hog{cmd: cmd, threads: threads}, nil
}

// Stop kills the hog by its PID and waits for it to exit, so no process is
// left behind. Calling Stop on a nil Hog does nothing.
func (h *Hog) Stop() error {
	if h == nil {
		return nil
	}
	if h.tempDir != "" {
		defer os.RemoveAll(h.tempDir)
	}
	if err := syscall.Kill(h.PID(), syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stopping cpuhog %d: %w", h.PID(), err)
	}
	// A hog killed by the signal reports it as an error from Wait; a hog that
	// had already left (deadline) reports its own status. Neither is a
	// failure to stop.
	_ = h.cmd.Wait()
	return nil
}

// FromEnv starts a hog when EnvThreads asks for one, building cmd/cpuhog
// first unless EnvBinary names a binary. It returns nil, nil in quiet mode.
func FromEnv() (*Hog, error) {
	v := os.Getenv(EnvThreads)
	if v == "" || v == "0" {
		return nil, nil
	}
	threads, err := strconv.Atoi(v)
	if err != nil || threads < 0 {
		return nil, fmt.Errorf("%s=%q: want a number of threads", EnvThreads, v)
	}
	limit := DefaultLimit
	if s := os.Getenv(EnvLimit); s != "" {
		if limit, err = time.ParseDuration(s); err != nil || limit <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive duration such as 10m", EnvLimit, s)
		}
	}
	bin, tempDir := os.Getenv(EnvBinary), ""
	if bin == "" {
		if tempDir, err = os.MkdirTemp("", "sentinelgen-cpuhog-"); err != nil {
			return nil, err
		}
		if bin, err = Build(tempDir); err != nil {
			os.RemoveAll(tempDir)
			return nil, err
		}
	}
	h, err := Start(bin, threads, limit)
	if err != nil {
		if tempDir != "" {
			os.RemoveAll(tempDir)
		}
		return nil, err
	}
	h.tempDir = tempDir
	return h, nil
}
