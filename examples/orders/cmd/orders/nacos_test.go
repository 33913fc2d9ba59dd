package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/dashboardtest"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
)

// TestNacosPersistsDashboardPushes runs the real Sentinel dashboard, a real
// Nacos and two instances of the example (the built binary, one app, two
// command ports) reading their rules from Nacos: a flow rule pushed from
// the dashboard to instance A is written to Nacos and comes into force on
// instance B through its subscription, and after A restarts it is in force
// on A again.
func TestNacosPersistsDashboardPushes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Nacos and the Sentinel dashboard (Java)")
	}
	server := nacostest.Start(t)
	nacos := server.Addr
	d := dashboardtest.Start(t)
	bin := filepath.Join(t.TempDir(), "orders")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const app = "orders-nacos"
	args := func(listen string) []string {
		return []string{"-duration=10m", "-qps=20", "-slow-until=0s", "-app=" + app,
			"-nacos=" + nacos, "-transport=" + listen, "-dashboard=" + d.Addr}
	}
	listenA, listenB := freeAddr(t), freeAddr(t)
	a := startOrders(t, bin, args(listenA)...)
	startOrders(t, bin, args(listenB)...)

	// Both instances register with the dashboard.
	_, portA, _ := net.SplitHostPort(listenA)
	waitFor(t, 60*time.Second, "both instances in the dashboard's machine list", func() bool {
		var machines []struct{ Healthy bool }
		_ = json.Unmarshal(d.API(http.MethodGet, "/app/"+app+"/machines.json", nil, nil), &machines)
		return len(machines) == 2 && machines[0].Healthy && machines[1].Healthy
	})

	// Pushes to A, each with a new count, timed until B has the rule in
	// force.
	pA, _ := strconv.Atoi(portA)
	var id int64
	var took []time.Duration
	const pushes = 7
	for i := range pushes {
		count := strconv.Itoa(100 + i)
		start := time.Now()
		if i == 0 {
			var rule struct{ ID int64 }
			_ = json.Unmarshal(d.API(http.MethodPost, "/v1/flow/rule", nil, map[string]any{
				"app": app, "ip": "127.0.0.1", "port": pA, "resource": "createOrder", "limitApp": "default",
				"grade": 1, "count": 100, "strategy": 0, "controlBehavior": 0, "clusterMode": false,
			}), &rule)
			id = rule.ID
		} else {
			d.API(http.MethodPut, "/v1/flow/save.json", url.Values{"id": {strconv.FormatInt(id, 10)}, "app": {app},
				"limitApp": {"default"}, "resource": {"createOrder"}, "grade": {"1"}, "count": {count},
				"strategy": {"0"}, "controlBehavior": {"0"}}, nil)
		}
		waitFor(t, 10*time.Second, "the pushed count "+count+" in force on instance B", func() bool {
			return flowCountOn(t, listenB) == count
		})
		took = append(took, time.Since(start))
		if got := flowCountOn(t, listenA); got != count {
			t.Fatalf("instance A has count %s in force after the push of %s", got, count)
		}
	}
	slices.Sort(took)
	median, most := took[len(took)/2], took[len(took)-1]
	t.Logf("dashboard push to A until in force on B, %d pushes: median %v, max %v", pushes, median.Round(time.Millisecond), most.Round(time.Millisecond))
	if median > time.Second {
		t.Errorf("a push reached instance B in a median of %v (all: %v), want within 1 s", median, took)
	}
	last := strconv.Itoa(100 + pushes - 1)
	c, _ := nacosapi.New(nacos, nacosapi.Options{})
	stored, _, err := c.Get(context.Background(), app+"-flow-rules", "SENTINEL_GROUP", "")
	if err != nil || !strings.Contains(stored, `"count": `+last) {
		t.Fatalf("Nacos holds %q (%v), want the last pushed count %s", stored, err, last)
	}

	// A restarts: its rules come from Nacos before its command center
	// answers.
	a.stop()
	startOrders(t, bin, args(listenA)...)
	if got := flowCountOn(t, listenA); got != last {
		t.Fatalf("after restarting, instance A has count %q in force, want the pushed %s", got, last)
	}

	// With Nacos gone a push cannot be stored: A refuses it, the dashboard
	// says so, and A keeps the stored rule rather than one of its own.
	server.Stop(t)
	r := d.Try(http.MethodPut, "/v1/flow/save.json", url.Values{"id": {strconv.FormatInt(id, 10)}, "app": {app},
		"limitApp": {"default"}, "resource": {"createOrder"}, "grade": {"1"}, "count": {"999"},
		"strategy": {"0"}, "controlBehavior": {"0"}}, nil)
	if r.Success {
		t.Errorf("a push with Nacos stopped: the dashboard answered success, want the failure")
	}
	if got := flowCountOn(t, listenA); got != last {
		t.Fatalf("after a push Nacos could not store, instance A has count %q in force, want %s", got, last)
	}
}

// flowCountOn is the count of the one flow rule in force on the instance
// whose command center is at addr ("" when it has not exactly one).
func flowCountOn(t *testing.T, addr string) string {
	var got []struct{ Count float64 }
	if err := json.Unmarshal([]byte(getCmd(t, addr, "getRules", url.Values{"type": {"flow"}})), &got); err != nil || len(got) != 1 {
		return ""
	}
	return strconv.FormatFloat(got[0].Count, 'f', -1, 64)
}

// instance is a running example process.
type instance struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// stop kills the process by its PID and waits for it.
func (o *instance) stop() {
	_ = o.cmd.Process.Kill()
	<-o.done
}

// startOrders starts the built example with args and waits until its
// command center listens; it is killed when t ends.
func startOrders(t *testing.T, bin string, args ...string) *instance {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	o := &instance{cmd: cmd, done: make(chan struct{})}
	listening := make(chan struct{})
	var seen strings.Builder
	go func() {
		defer close(o.done)
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() {
			if !said {
				seen.WriteString(sc.Text() + "\n")
				if commandCenterRE.MatchString(sc.Text()) {
					said = true
					close(listening)
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
	}()
	t.Cleanup(o.stop)
	select {
	case <-listening:
	case <-o.done:
		t.Fatalf("orders %v exited:\n%s", args, seen.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("orders %v: no command center within a minute", args)
	}
	return o
}

var commandCenterRE = regexp.MustCompile(`sentinel command center on 127\.0\.0\.1:\d+`)

// freeAddr is a free loopback address.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitFor polls cond every 10 ms until it holds, failing t after within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// With Nacos unreachable the example does not start: the error names the
// dataId it could not read.
func TestNacosUnreachableStopsTheStart(t *testing.T) {
	addr := freeAddr(t) // nothing listens there any more
	err := run(context.Background(), []string{"-nacos=" + addr, "-app=orders", "-duration=1s"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "orders-flow-rules") || !strings.Contains(err.Error(), "does not start") {
		t.Fatalf("run with Nacos unreachable: %v, want the start refused naming orders-flow-rules", err)
	}
}
