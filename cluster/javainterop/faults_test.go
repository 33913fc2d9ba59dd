package javainterop

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// serverProcess is a token server in a process of its own, Go's or
// Java's, on a fixed port so that it can come back where it was.
type serverProcess struct {
	name  string
	addr  string
	start func() int // starts the server, returning its PID
	pid   int
}

func (s *serverProcess) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(s.pid, sig); err != nil {
		t.Fatalf("%s: signal %v: %v", s.name, sig, err)
	}
}

// goServerProcess runs the test binary as a Go token server (goServer) on
// 127.0.0.1:port.
func goServerProcess(t testing.TB, port int, rules []runtime.FlowRule, flow tokenserver.FlowConfig, paramRules ...runtime.ParamFlowRule) *serverProcess {
	cfg, err := json.Marshal(serverConfig{Listen: "127.0.0.1:" + strconv.Itoa(port), Namespace: namespace, Rules: rules, Flow: flow, ParamRules: paramRules})
	if err != nil {
		t.Fatal(err)
	}
	s := &serverProcess{name: "go server", addr: "127.0.0.1:" + strconv.Itoa(port)}
	s.start = func() int {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), serverEnv+"="+string(cfg))
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		lines := make(chan string, 16)
		go scanLines(out, lines)
		select {
		case l := <-lines:
			if !strings.HasPrefix(l, "listening ") {
				t.Fatalf("go server: %q", l)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("go server did not start")
		}
		return cmd.Process.Pid
	}
	return s
}

// javaServerProcess runs Java's token server on 127.0.0.1:port; flowJSON,
// when not empty, is its flow config.
func javaServerProcess(t testing.TB, port int, rulesJSON, flowJSON string) *serverProcess {
	s := &serverProcess{name: "java server", addr: "127.0.0.1:" + strconv.Itoa(port)}
	s.start = func() int {
		p := startJava(t, "server", strconv.Itoa(port))
		p.expect("started", 60*time.Second)
		if got := p.do("rules %s %s", namespace, rulesJSON); got != "ok" {
			t.Fatalf("java server rules: %s", got)
		}
		if flowJSON != "" {
			if got := p.do("flowconfig %s", flowJSON); got != "ok" {
				t.Fatalf("java server flow config: %s", got)
			}
		}
		return p.cmd.Process.Pid
	}
	return s
}

// callsDuring calls res in a loop for d and returns the 99th percentile
// and the slowest of the calls' times, and how many calls were made.
func callsDuring(res *runtime.Resource, d time.Duration) (p99, slowest time.Duration, calls int) {
	var took []time.Duration
	for end := time.Now().Add(d); time.Now().Before(end); {
		start := time.Now()
		if e, blocked := res.Entry(context.Background()); blocked == nil {
			e.Exit()
		}
		took = append(took, time.Since(start))
		time.Sleep(time.Millisecond)
	}
	slices.Sort(took)
	return took[len(took)*99/100], took[len(took)-1], len(took)
}

// A token server that stops answering (SIGSTOP) costs a call its request
// timeout and no more; one that is gone (killed) costs nothing: calls fall
// back to the local rule at once. The client is back within 5 s of the
// server's return. Against Go's server and Java's.
func TestServerFaultsUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("stops and kills token servers for seconds")
	}
	const timeout = 20 * time.Millisecond
	rule := runtime.FlowRule{Resource: "faults.createOrder", Grade: runtime.FlowGradeQPS, Count: 1e6, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 101, ThresholdType: runtime.Global, FallbackToLocalWhenFail: true}}
	servers := []*serverProcess{
		goServerProcess(t, freePort(t), []runtime.FlowRule{rule}, tokenserver.FlowConfig{}),
		javaServerProcess(t, freePort(t), `[{"resource":"faults.createOrder","count":1000000,"clusterMode":true,"clusterConfig":{"flowId":101,"thresholdType":1}}]`, ""),
	}
	if err := runtime.LoadFlowRules([]runtime.FlowRule{rule}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runtime.LoadFlowRules(nil) })
	res := runtime.NewResource(rule.Resource)
	for _, srv := range servers {
		t.Run(strings.ReplaceAll(srv.name, " ", "_"), func(t *testing.T) {
			srv.pid = srv.start()
			c, err := tokenclient.New(tokenclient.Config{Addr: srv.addr, Namespace: namespace, RequestTimeout: timeout, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			prev := runtime.SetTokenService(c)
			defer runtime.SetTokenService(prev)
			waitConnected(t, c, 20*time.Second)

			_, normal, _ := callsDuring(res, 2*time.Second)
			before := c.Stats()
			srv.signal(t, syscall.SIGSTOP)
			stoppedP99, stopped, n := callsDuring(res, 5*time.Second)
			srv.signal(t, syscall.SIGCONT)
			during := c.Stats()
			if during.TimedOut-before.TimedOut == 0 {
				t.Errorf("no request timed out while the server was stopped")
			}
			srv.signal(t, syscall.SIGKILL)
			_, killed, m := callsDuring(res, 5*time.Second)
			if !(c.Stats().Unsent > during.Unsent) {
				t.Errorf("no call fell back at once while the server was gone: %+v", c.Stats())
			}
			srv.pid = srv.start()
			// Measured from the moment the server is up again.
			reconnect := waitConnected(t, c, 10*time.Second)
			// A server just started (a JVM not yet warm) may miss the
			// first timeouts: its answers come within seconds.
			answered := false
			for end := time.Now().Add(5 * time.Second); !answered && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
				answered = c.Request(101, 1, false).Status == runtime.TokenOK
			}
			if !answered {
				t.Errorf("no token within 5 s of the server's return")
			}
			t.Logf("%s: slowest call normal %v; server stopped: p99 %v, slowest %v (%d calls, timeout %v); server killed: slowest %v (%d calls); reconnected %v after the restart",
				srv.name, normal.Round(time.Microsecond), stoppedP99.Round(time.Microsecond), stopped.Round(time.Microsecond), n, timeout,
				killed.Round(time.Microsecond), m, reconnect.Round(time.Millisecond))
			// The bounds leave room for a busy 2-core machine's scheduling;
			// the log has the figures.
			if stopped > timeout+200*time.Millisecond {
				t.Errorf("a call took %v while the server was stopped, with a %v timeout", stopped, timeout)
			}
			if killed > 200*time.Millisecond {
				t.Errorf("a call took %v while the server was gone", killed)
			}
			if reconnect > 5*time.Second {
				t.Errorf("reconnected %v after the server's return, want within 5 s", reconnect)
			}
		})
	}
}

// waitConnected waits for c to be connected.
func waitConnected(t testing.TB, c *tokenclient.Client, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for !c.Connected() {
		if time.Since(start) > within {
			t.Fatalf("not connected within %v", within)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}
