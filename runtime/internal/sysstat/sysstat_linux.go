//go:build linux

package sysstat

import (
	"os"
	"path"
	goruntime "runtime"
	"syscall"
	"time"
)

// Supported reports whether this platform has the readings.
func Supported() bool { return true }

// root is where cgroup v2 is mounted (a variable for tests).
var root = "/sys/fs/cgroup"

// LoadAverage is the host's one-minute load average (/proc/loadavg), or -1.
func LoadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	if v, ok := parseLoadavg(string(b)); ok {
		return v
	}
	return -1
}

// processCPU is the CPU time the process has used, user and system, from
// getrusage, in seconds.
func processCPU() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return tvSec(ru.Utime) + tvSec(ru.Stime), true
}

func tvSec(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }

// CPULimit is how many CPUs the process may use: those its affinity mask
// allows (runtime.NumCPU), fewer when a cgroup v2 cpu.max quota of its
// cgroup or of an ancestor is lower. Fractional quotas stay fractional: a
// 1.5-CPU quota is 1.5, not 2 (the under-reporting of Sentinel #3120).
func CPULimit() float64 {
	limit := float64(goruntime.NumCPU())
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return limit
	}
	p, ok := parseCgroupPath(string(b))
	if !ok {
		return limit
	}
	for dir := path.Clean("/" + p); ; dir = path.Dir(dir) {
		if b, err := os.ReadFile(path.Join(root, dir, "cpu.max")); err == nil {
			if cpus, ok := parseCPUMax(string(b)); ok {
				limit = min(limit, cpus)
			}
		}
		if dir == "/" {
			return limit
		}
	}
}

// Sampler turns successive readings of the process's CPU time into usage.
// It is not safe for concurrent use.
type Sampler struct {
	lastCPU  float64
	lastWall time.Time
	cpus     float64
}

// NewSampler returns a sampler whose first Sample reports CPU usage unknown
// (it needs two readings).
func NewSampler() *Sampler { return &Sampler{cpus: CPULimit()} }

// Sample reads the load average and the process's CPU usage since the last
// Sample (0..1 of CPULimit), each -1 when unknown.
func (s *Sampler) Sample(now time.Time) (load, cpu float64) {
	load, cpu = LoadAverage(), -1
	c, ok := processCPU()
	if !ok {
		return load, cpu
	}
	if !s.lastWall.IsZero() {
		cpu = usage(c-s.lastCPU, now.Sub(s.lastWall).Seconds(), s.cpus)
	}
	s.lastCPU, s.lastWall = c, now
	return load, cpu
}
