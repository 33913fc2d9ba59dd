package sysstat

import "testing"

func TestParseLoadavg(t *testing.T) {
	if v, ok := parseLoadavg("0.52 0.58 0.59 1/467 12345\n"); !ok || v != 0.52 {
		t.Errorf("got %v %v, want 0.52", v, ok)
	}
	if _, ok := parseLoadavg("garbage"); ok {
		t.Error("garbage parsed")
	}
}

// Fractional quotas stay fractional (Sentinel rounds them up, #3120).
func TestParseCPUMax(t *testing.T) {
	for text, want := range map[string]float64{"150000 100000\n": 1.5, "50000 100000": 0.5, "200000 50000": 4, "25000": 0.25} {
		if got, ok := parseCPUMax(text); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", text, got, ok, want)
		}
	}
	for _, text := range []string{"max 100000", "", "0 100000", "x 1"} {
		if _, ok := parseCPUMax(text); ok {
			t.Errorf("%q read as a limit", text)
		}
	}
}

func TestParseCgroupPath(t *testing.T) {
	if p, ok := parseCgroupPath("12:cpu:/old\n0::/system.slice/x.service\n"); !ok || p != "/system.slice/x.service" {
		t.Errorf("got %q %v", p, ok)
	}
	if _, ok := parseCgroupPath("12:cpu,cpuacct:/docker/abc\n"); ok {
		t.Error("a cgroup v1 line read as v2")
	}
}

// Usage is a fraction of the CPUs available, not a percentage (the
// sentinel-golang bug #435), clamped to 0..1.
func TestUsage(t *testing.T) {
	for _, tc := range []struct{ cpu, wall, cpus, want float64 }{
		{0.5, 1, 1, 0.5},
		{0.75, 1, 1.5, 0.5},
		{3, 1, 2, 1},
		{1, 0, 2, -1},
	} {
		if got := usage(tc.cpu, tc.wall, tc.cpus); got != tc.want {
			t.Errorf("usage(%v, %v, %v) = %v, want %v", tc.cpu, tc.wall, tc.cpus, got, tc.want)
		}
	}
}
