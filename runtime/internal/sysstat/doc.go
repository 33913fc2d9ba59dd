// Package sysstat reads what system adaptive protection compares with its
// thresholds: the host's one-minute load average and the process's CPU
// usage as a fraction (0..1) of the CPUs it may use, bounded by its cgroup
// v2 CPU quota. Only Linux has the readings; elsewhere Supported is false
// and Sample reports every reading as unknown (-1).
package sysstat
