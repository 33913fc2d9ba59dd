package javainterop

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const namespace = "orders"

// The rules both servers hold: flowId 101 a global budget of 5, flowId 102
// a per-instance budget of 2.
const rulesJSON = `[{"resource":"createOrder","count":5,"clusterMode":true,"clusterConfig":{"flowId":101,"thresholdType":1}},` +
	`{"resource":"payOrder","count":2,"clusterMode":true,"clusterConfig":{"flowId":102,"thresholdType":0}}]`

func goRules() []runtime.FlowRule {
	rule := func(res string, id int64, count float64, typ runtime.ThresholdType) runtime.FlowRule {
		return runtime.FlowRule{Resource: res, Grade: runtime.FlowGradeQPS, Count: count, ClusterMode: true,
			ClusterConfig: runtime.ClusterConfig{FlowID: id, ThresholdType: typ, FallbackToLocalWhenFail: true}}
	}
	return []runtime.FlowRule{rule("createOrder", 101, 5, runtime.Global), rule("payOrder", 102, 2, runtime.AvgLocal)}
}

// request is one token request of a sequence.
type request struct {
	flowID      int64
	acquire     int32
	prioritized bool
}

// sequence is what every pairing is asked, fast enough to stay within one
// second, so that the answers do not depend on timing: the global budget
// spent one and two tokens at a time, then refused; an unknown flowId; the
// per-instance budget of the one connected client.
var sequence = []request{
	{101, 1, false}, {101, 2, false}, {101, 1, false}, {101, 1, false}, {101, 1, false}, {101, 3, false},
	{999, 1, false},
	{102, 1, false}, {102, 1, false}, {102, 1, false},
}

// answer is a response as "STATUS REMAINING WAIT".
type answer string

// startGoServer runs a Go token server in the test's process with the flow
// rules (goRules) and the hot-parameter rules (goParamRules) the Java
// server gets.
func startGoServer(t *testing.T) string {
	t.Helper()
	s, err := tokenserver.New(tokenserver.Config{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFlowRules(namespace, goRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadParamFlowRules(namespace, goParamRules()); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(l)
	t.Cleanup(func() { s.Close() })
	return l.Addr().String()
}

// startJavaServer runs Java's token server with the flow rules (rulesJSON)
// and the hot-parameter rules (paramRulesJSON).
func startJavaServer(t *testing.T) string {
	t.Helper()
	port := freePort(t)
	p := startJava(t, "server", strconv.Itoa(port))
	p.expect("started", 60*time.Second)
	if got := p.do("rules %s %s", namespace, rulesJSON); got != "ok" {
		t.Fatalf("loading the Java server's rules: %s", got)
	}
	if got := p.do("paramrules %s %s", namespace, paramRulesJSON); got != "ok" {
		t.Fatalf("loading the Java server's param rules: %s", got)
	}
	return "127.0.0.1:" + strconv.Itoa(port)
}

// goClient is a Go client of addr, connected and counted by the server.
func goClient(t *testing.T, addr string) *tokenclient.Client {
	t.Helper()
	c, err := tokenclient.New(tokenclient.Config{Addr: addr, Namespace: namespace, RequestTimeout: 2 * time.Second, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	waitConnected(t, c, 20*time.Second)
	time.Sleep(100 * time.Millisecond) // the PING, which counts the client, goes first
	return c
}

// javaClient is Java's client of addr, through delayingProxy (see
// answerDelay), connected.
func javaClient(t *testing.T, addr string) *process {
	t.Helper()
	host, port, _ := net.SplitHostPort(delayingProxy(t, addr))
	p := startJava(t, "client", host, port, namespace, "2000")
	p.expect("connected", 60*time.Second)
	time.Sleep(100 * time.Millisecond)
	return p
}

// goAnswer is a's text as the Java harness prints an answer.
func goAnswer(a tokenclient.Answer) answer {
	return answer(fmt.Sprintf("%d %d %d", a.Status, a.Remaining, a.WaitMs))
}

// askWithGoClient sends the sequence through the Go client.
func askWithGoClient(t *testing.T, addr string) []answer {
	t.Helper()
	c := goClient(t, addr)
	var out []answer
	for _, r := range sequence {
		out = append(out, goAnswer(c.Request(r.flowID, r.acquire, r.prioritized)))
	}
	return out
}

// askWithJavaClient sends the sequence through Java's client.
func askWithJavaClient(t *testing.T, addr string) []answer {
	t.Helper()
	p := javaClient(t, addr)
	var out []answer
	for _, r := range sequence {
		out = append(out, answer(p.do("flow %d %d %v", r.flowID, r.acquire, r.prioritized)))
	}
	return out
}

// want is what Sentinel's checker answers the sequence: remaining budget
// after each OK, 1 BLOCKED, 3 NO_RULE_EXISTS.
var want = []answer{"0 4 0", "0 2 0", "0 1 0", "0 0 0", "1 0 0", "1 0 0", "3 0 0", "0 1 0", "0 0 0", "1 0 0"}

// The Go client against Java's token server, and Java's client against the
// Go token server, answer request by request as Java's client and server
// answer each other.
func TestTokenProtocolAgainstJava(t *testing.T) {
	javaServer := startJavaServer(t)
	pairs := map[string]func() []answer{
		"java client, java server": func() []answer { return askWithJavaClient(t, javaServer) },
		"go client, java server":   func() []answer { return askWithGoClient(t, startJavaServer(t)) },
		"java client, go server":   func() []answer { return askWithJavaClient(t, startGoServer(t)) },
		"go client, go server":     func() []answer { return askWithGoClient(t, startGoServer(t)) },
	}
	for _, name := range []string{"java client, java server", "go client, java server", "java client, go server", "go client, go server"} {
		got := pairs[name]()
		if !slices.Equal(got, want) {
			t.Errorf("%s answered\n%v\nwant\n%v", name, got, want)
		}
	}
}

// A client that names a namespace the server does not serve is answered
// all the same, as Java's server answers it (it does not check the
// namespace), but is not counted among the namespace's clients: an
// AVG_LOCAL rule of "orders" has no budget while no client of "orders" is
// connected.
func TestUnknownNamespace(t *testing.T) {
	want := []answer{"0 4 0", "1 0 0"}
	for name, addr := range map[string]func() string{
		"java server": func() string { return startJavaServer(t) },
		"go server":   func() string { return startGoServer(t) },
	} {
		c, err := tokenclient.New(tokenclient.Config{Addr: addr(), Namespace: "nobody", RequestTimeout: 2 * time.Second, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		waitConnected(t, c, 20*time.Second)
		time.Sleep(100 * time.Millisecond) // the PING goes first
		var got []answer
		for _, id := range []int64{101, 102} {
			a := c.Request(id, 1, false)
			got = append(got, answer(fmt.Sprintf("%d %d %d", a.Status, a.Remaining, a.WaitMs)))
		}
		c.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%s answered a client of namespace nobody %v, want %v", name, got, want)
		}
	}
}
