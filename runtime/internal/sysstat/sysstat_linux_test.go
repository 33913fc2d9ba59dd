//go:build linux

package sysstat

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"
)

// The real /proc of this machine: a load average, a CPU limit within the
// affinity mask, and a CPU usage in 0..1 after some work.
func TestReadsThisMachine(t *testing.T) {
	if !Supported() {
		t.Fatal("Linux not supported")
	}
	if l := LoadAverage(); l < 0 {
		t.Fatalf("load average %v", l)
	}
	if c := CPULimit(); c <= 0 || c > float64(goruntime.NumCPU()) {
		t.Fatalf("CPU limit %v, NumCPU %d", c, goruntime.NumCPU())
	}
	s := NewSampler()
	start := time.Now()
	if _, cpu := s.Sample(start); cpu != -1 {
		t.Fatalf("first sample's CPU %v, want -1 (unknown)", cpu)
	}
	x := 0
	for time.Since(start) < 50*time.Millisecond {
		x++
	}
	_, cpu := s.Sample(time.Now())
	if cpu <= 0 || cpu > 1 {
		t.Fatalf("CPU usage %v after a busy loop, want in (0, 1]", cpu)
	}
	_ = x
}

// A quota on an ancestor cgroup bounds the limit too.
func TestCPULimitReadsAncestors(t *testing.T) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Skip(err)
	}
	p, ok := parseCgroupPath(string(b))
	if !ok {
		t.Skip("not cgroup v2")
	}
	fake := t.TempDir()
	if err := os.MkdirAll(filepath.Join(fake, p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "cpu.max"), []byte("50000 100000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prev := root
	root = fake
	defer func() { root = prev }()
	if got := CPULimit(); got != 0.5 {
		t.Fatalf("CPU limit %v under a root quota of 0.5", got)
	}
}
