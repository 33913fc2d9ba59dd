package javainterop

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// fleetSeconds is how long the fleet runs; fleetRate is what each instance
// is offered per second on each resource.
const (
	fleetSeconds = 30
	fleetRate    = 200
)

// instance is one member of a fleet: its output lines arrive on lines.
type instance struct {
	name  string
	lines chan string
}

// startGoInstance runs the test binary as a Go instance (see goInstance).
func startGoInstance(t *testing.T, name string, cfg instanceConfig) *instance {
	t.Helper()
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), instanceEnv+"="+string(data))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	in := &instance{name: name, lines: make(chan string, 256)}
	go scanLines(stdout, in.lines)
	return in
}

// counts are one instance's passes and blocks by resource and second.
type counts map[string]map[int64][2]int

// secondsOf reads an instance's "second N RESOURCE pass P block B" lines,
// until it has every second of every resource.
func secondsOf(t *testing.T, in *instance, resources int, within time.Duration) counts {
	t.Helper()
	out := counts{}
	deadline := time.After(within)
	for seen := 0; seen < fleetSeconds*resources; {
		select {
		case l, ok := <-in.lines:
			if !ok {
				t.Fatalf("%s ended after %d per-second lines", in.name, seen)
			}
			var sec int64
			var res string
			var pass, block int
			if _, err := fmt.Sscanf(l, "second %d %s pass %d block %d", &sec, &res, &pass, &block); err == nil {
				if out[res] == nil {
					out[res] = map[int64][2]int{}
				}
				out[res][sec] = [2]int{pass, block}
				seen++
			}
		case <-deadline:
			t.Fatalf("%s: no per-second report within %v", in.name, within)
		}
	}
	return out
}

// waitLine waits for an instance's line want.
func waitLine(t *testing.T, in *instance, want string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-in.lines:
			if !ok {
				t.Fatalf("%s ended before %q", in.name, want)
			}
			if l == want {
				return
			}
		case <-deadline:
			t.Fatalf("%s: no %q within %v", in.name, want, within)
		}
	}
}

// ruleJSON is r as Sentinel's JSON.
func ruleJSON(r runtime.FlowRule) string {
	return fmt.Sprintf(`{"resource":%q,"count":%v,"clusterMode":true,"clusterConfig":{"flowId":%d,"thresholdType":%d,"fallbackToLocalWhenFail":true}}`,
		r.Resource, r.Count, r.ClusterConfig.FlowID, r.ClusterConfig.ThresholdType)
}

// runFleet runs two Go instances and one Java instance of one application
// against a Go token server holding rules, each instance offered fleetRate
// calls per second on each rule's resource, and returns the passes of the
// whole fleet per resource and whole second.
func runFleet(t *testing.T, rules []runtime.FlowRule) map[string][]int {
	srv, err := tokenserver.New(tokenserver.Config{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.LoadFlowRules("fleet", rules); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	addr := l.Addr().String()

	// Everyone starts on the same whole second, late enough for the JVM.
	start := (time.Now().Add(15*time.Second).UnixMilli() / 1000) * 1000
	cfg := instanceConfig{Server: addr, Namespace: "fleet", Rules: rules, Rate: fleetRate, Seconds: fleetSeconds, StartMs: start}
	members := []*instance{startGoInstance(t, "go instance A", cfg), startGoInstance(t, "go instance B", cfg)}
	var js []string
	for _, r := range rules {
		js = append(js, ruleJSON(r))
	}
	// Java's client goes through delayingProxy (see answerDelay).
	host, port, _ := net.SplitHostPort(delayingProxy(t, addr))
	jp := startJava(t, "app", host, port, "fleet", "["+strings.Join(js, ",")+"]",
		strconv.Itoa(fleetRate), strconv.Itoa(fleetSeconds), strconv.FormatInt(start, 10))
	members = append(members, &instance{name: "java instance", lines: jp.lines})
	for _, in := range members {
		waitLine(t, in, "connected", time.Until(time.UnixMilli(start)))
	}
	within := time.Until(time.UnixMilli(start)) + (fleetSeconds+20)*time.Second
	var all []counts
	for _, in := range members {
		all = append(all, secondsOf(t, in, len(rules), within))
	}
	total := map[string][]int{}
	for _, r := range rules {
		var lines []string
		for i := range int64(fleetSeconds) {
			sec := start/1000 + i
			sum := 0
			var parts []string
			for j, m := range all {
				c := m[r.Resource][sec]
				sum += c[0]
				parts = append(parts, fmt.Sprintf("%c %d/%d", "ABJ"[j], c[0], c[0]+c[1]))
			}
			total[r.Resource] = append(total[r.Resource], sum)
			lines = append(lines, fmt.Sprintf("second %2d: %3d passed (%s)", i, sum, strings.Join(parts, ", ")))
		}
		t.Logf("%s (%s %v): passes of the fleet per second, and each instance's passed/offered:\n%s",
			r.Resource, r.ClusterConfig.ThresholdType, r.Count, strings.Join(lines, "\n"))
	}
	return total
}

// Two Go instances and one Java instance, each offered 200 calls a second,
// share a GLOBAL budget of 300 a second, and an AVG_LOCAL budget of 100 per
// instance (300 with three connected), through the Go token server.
func TestMixedFleetHoldsOneBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a 30 s fleet run")
	}
	java(t)
	rule := func(res string, id int64, count float64, typ runtime.ThresholdType) runtime.FlowRule {
		return runtime.FlowRule{Resource: res, Grade: runtime.FlowGradeQPS, Count: count, ClusterMode: true,
			ClusterConfig: runtime.ClusterConfig{FlowID: id, ThresholdType: typ, FallbackToLocalWhenFail: true}}
	}
	rules := []runtime.FlowRule{rule("createOrder", 201, 300, runtime.Global), rule("payOrder", 202, 100, runtime.AvgLocal)}
	for res, perSecond := range runFleet(t, rules) {
		for i, n := range perSecond {
			if n < 285 || n > 315 {
				t.Errorf("%s, second %d: the fleet passed %d, want 300 ± 5 %%", res, i, n)
			}
		}
	}
}
