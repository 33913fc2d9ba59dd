package assign

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// commandCenter serves ctl's cluster commands on 127.0.0.1.
func commandCenter(t *testing.T, ctl *Controller) string {
	t.Helper()
	srv, err := transport.Start(transport.Config{App: "orders", Listen: "127.0.0.1:0", Cluster: ctl, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return "http://" + srv.Addr().String()
}

// call sends a command as the dashboard does (GET with query, or POST with
// a form) and returns its status and body.
func call(t *testing.T, method, base, cmd string, params url.Values) (int, string) {
	t.Helper()
	var resp *http.Response
	var err error
	if method == http.MethodGet {
		resp, err = http.Get(base + "/" + cmd + "?" + params.Encode())
	} else {
		resp, err = http.PostForm(base+"/"+cmd, params)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func newController(t *testing.T) *Controller {
	t.Helper()
	ctl, err := New(Config{App: "orders", ServerHost: "127.0.0.1", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ctl.Close() })
	return ctl
}

// The dashboard's server assignment, in its order (mode, transport, flow,
// namespaces), makes the service an embedded token server that other
// instances connect to, and its info shows them.
func TestDashboardAssignsAnEmbeddedServer(t *testing.T) {
	rule := runtime.FlowRule{Resource: "createOrder", Grade: runtime.FlowGradeQPS, Count: 3, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 301, ThresholdType: runtime.Global, FallbackToLocalWhenFail: true}}
	if err := runtime.LoadFlowRules([]runtime.FlowRule{rule}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runtime.LoadFlowRules(nil) })
	ctl := newController(t)
	base := commandCenter(t, ctl)
	port := freePort(t)
	steps := []struct {
		method, cmd string
		params      url.Values
	}{
		{http.MethodGet, "setClusterMode", url.Values{"mode": {"1"}}},
		{http.MethodGet, "cluster/server/modifyTransportConfig", url.Values{"port": {strconv.Itoa(port)}, "idleSeconds": {"600"}}},
		{http.MethodPost, "cluster/server/modifyFlowConfig", url.Values{"data": {`{"maxAllowedQps":5000}`}}},
		{http.MethodPost, "cluster/server/modifyNamespaceSet", url.Values{"data": {`["orders","payments"]`}}},
	}
	for _, s := range steps {
		if status, body := call(t, s.method, base, s.cmd, s.params); status != http.StatusOK || body != "success" {
			t.Fatalf("%s: %d %q, want 200 success", s.cmd, status, body)
		}
	}
	var state transport.ClusterState
	_, body := call(t, http.MethodGet, base, "getClusterMode", nil)
	if err := json.Unmarshal([]byte(body), &state); err != nil || state.Mode != 1 || !state.ServerAvailable || state.LastModified <= 0 {
		t.Fatalf("getClusterMode: %s (%v)", body, err)
	}

	// Another instance of orders connects and spends the budget; the
	// service's own calls are decided in process from the same budget.
	other, err := tokenclient.New(tokenclient.Config{Addr: "127.0.0.1:" + strconv.Itoa(port), Namespace: "orders", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for deadline := time.Now().Add(5 * time.Second); !other.Connected(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the other instance did not connect to the embedded server")
		}
	}
	for i := 0; i < 2; i++ {
		if a := other.Request(301, 1, false); a.Status != runtime.TokenOK {
			t.Fatalf("other instance, call %d: %v", i, a.Status)
		}
	}
	res := runtime.NewResource("createOrder")
	if e, blocked := res.Entry(t.Context()); blocked != nil {
		t.Fatalf("the service's own third call: %v", blocked)
	} else {
		e.Exit()
	}
	if _, blocked := res.Entry(t.Context()); blocked == nil {
		t.Fatal("the fourth call of the budget of 3 passed")
	}

	var info transport.ClusterServerInfo
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, body = call(t, http.MethodGet, base, "cluster/server/info", nil)
		if err := json.Unmarshal([]byte(body), &info); err != nil {
			t.Fatalf("cluster/server/info: %s (%v)", body, err)
		}
		if connected(info, "orders") == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if info.Port != port || !info.Embedded || info.AppName != "orders" || info.Flow.MaxAllowedQps != 5000 ||
		connected(info, "orders") != 1 || !strings.Contains(strings.Join(info.NamespaceSet, ","), "payments") {
		t.Fatalf("cluster/server/info: %s", body)
	}
	_, body = call(t, http.MethodGet, base, "cluster/server/metricList", url.Values{"namespace": {"orders"}})
	if !strings.Contains(body, `"flowId":301`) {
		t.Errorf("metricList: %s", body)
	}
}

func connected(info transport.ClusterServerInfo, ns string) int {
	for _, g := range info.Connection {
		if g.Namespace == ns {
			return g.ConnectedCount
		}
	}
	return -1
}

// The dashboard's client assignment (mode 0, then the server's address)
// makes the service a token client of that server.
func TestDashboardAssignsAClient(t *testing.T) {
	server := newController(t)
	port := freePort(t)
	server.SetServerTransport(port, 600)
	if err := server.SetMode(transport.ClusterModeServer); err != nil {
		t.Fatal(err)
	}
	// The server's budgets are its own rules; take the server's token
	// service out of the runtime, as if it ran in another process.
	srvRule := runtime.FlowRule{Resource: "payOrder", Grade: runtime.FlowGradeQPS, Count: 1, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 302, ThresholdType: runtime.Global, FallbackToLocalWhenFail: true}}
	runtime.LoadFlowRules([]runtime.FlowRule{srvRule})
	t.Cleanup(func() { runtime.LoadFlowRules(nil) })

	client := newController(t)
	base := commandCenter(t, client)
	if status, body := call(t, http.MethodGet, base, "setClusterMode", url.Values{"mode": {"0"}}); body != "success" {
		t.Fatalf("setClusterMode 0: %d %q", status, body)
	}
	data := `{"serverHost":"127.0.0.1","serverPort":` + strconv.Itoa(port) + `,"requestTimeout":500}`
	if status, body := call(t, http.MethodPost, base, "cluster/client/modifyConfig", url.Values{"data": {data}}); body != "success" {
		t.Fatalf("modifyConfig: %d %q", status, body)
	}
	var cfg transport.ClusterClientConfig
	_, body := call(t, http.MethodGet, base, "cluster/client/fetchConfig", nil)
	if err := json.Unmarshal([]byte(body), &cfg); err != nil || cfg.ServerPort != port || cfg.ClientState != 2 || cfg.RequestTimeout != 500 {
		t.Fatalf("fetchConfig: %s (%v)", body, err)
	}
	svc := runtime.CurrentTokenService()
	if _, ok := svc.(*tokenclient.Client); !ok {
		t.Fatalf("token service %T, want the token client", svc)
	}
	rule := srvRule
	deadline := time.Now().Add(5 * time.Second)
	for svc.RequestToken(&rule, 1, false).Status != runtime.TokenOK {
		if time.Now().After(deadline) {
			t.Fatal("no token from the assigned server")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A change sent by a page of another site, or with a bad mode, is refused.
func TestClusterCommandsRefuse(t *testing.T) {
	ctl := newController(t)
	base := commandCenter(t, ctl)
	req, _ := http.NewRequest(http.MethodGet, base+"/setClusterMode?mode=1", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || ctl.State().Mode != transport.ClusterModeNotStarted {
		t.Errorf("a cross-site setClusterMode: %d, mode %d", resp.StatusCode, ctl.State().Mode)
	}
	for _, c := range []struct{ cmd, key, value string }{
		{"setClusterMode", "mode", "7"},
		{"cluster/client/modifyConfig", "data", `{"serverHost":"","serverPort":0}`},
		{"cluster/server/modifyFlowConfig", "data", `{"sampleCount":3,"intervalMs":1000}`},
		{"cluster/server/modifyTransportConfig", "port", "x"},
	} {
		if status, body := call(t, http.MethodPost, base, c.cmd, url.Values{c.key: {c.value}}); status == http.StatusOK || body == "success" {
			t.Errorf("%s %s=%s: %d %q, want a refusal", c.cmd, c.key, c.value, status, body)
		}
	}
}
