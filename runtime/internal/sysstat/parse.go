package sysstat

import (
	"strconv"
	"strings"
)

// parseLoadavg returns the one-minute load average from the text of
// /proc/loadavg ("0.52 0.58 0.59 1/467 12345").
func parseLoadavg(text string) (float64, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	v, err := strconv.ParseFloat(first, 64)
	return v, err == nil && v >= 0
}

// parseCPUMax returns the CPUs a cgroup v2 cpu.max file allows ("150000
// 100000" is 1.5; "max 100000" has no limit, ok false).
func parseCPUMax(text string) (cpus float64, ok bool) {
	fields := strings.Fields(text)
	if len(fields) == 0 || fields[0] == "max" {
		return 0, false
	}
	quota, err := strconv.ParseFloat(fields[0], 64)
	if err != nil || quota <= 0 {
		return 0, false
	}
	period := 100000.0 // the kernel's default when the file gives none
	if len(fields) > 1 {
		if p, err := strconv.ParseFloat(fields[1], 64); err == nil && p > 0 {
			period = p
		}
	}
	return quota / period, true
}

// parseCgroupPath returns the process's cgroup v2 path from the text of
// /proc/self/cgroup (the "0::/path" line), or false under cgroup v1.
func parseCgroupPath(text string) (string, bool) {
	for _, line := range strings.Split(text, "\n") {
		if path, ok := strings.CutPrefix(line, "0::"); ok {
			return path, true
		}
	}
	return "", false
}

// usage is CPU time used over wall time elapsed, divided by the CPUs
// available, clamped to 0..1; -1 when nothing elapsed.
func usage(cpuSec, wallSec, cpus float64) float64 {
	if wallSec <= 0 || cpus <= 0 {
		return -1
	}
	return min(max(cpuSec/wallSec/cpus, 0), 1)
}
