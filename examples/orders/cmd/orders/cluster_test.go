package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/dashboardtest"
)

// TestDashboardAssignsTokenServer runs the real Sentinel dashboard and two
// instances of the example, and assigns them through the dashboard's own
// cluster API (what its 集群流控 page posts): instance A an embedded token
// server, instance B its client. The page's state then shows A as a Go
// token server with B connected, and B as a client of A.
func TestDashboardAssignsTokenServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Sentinel dashboard (Java)")
	}
	d := dashboardtest.Start(t)
	bin := filepath.Join(t.TempDir(), "orders")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	const app = "orders-cluster"
	listenA, listenB := freeAddr(t), freeAddr(t)
	for _, listen := range []string{listenA, listenB} {
		startOrders(t, bin, "-duration=10m", "-qps=20", "-slow-until=0s", "-app="+app, "-transport="+listen, "-dashboard="+d.Addr)
	}
	waitFor(t, 60*time.Second, "both instances in the dashboard's machine list", func() bool {
		var machines []struct{ Healthy bool }
		_ = json.Unmarshal(d.API(http.MethodGet, "/app/"+app+"/machines.json", nil, nil), &machines)
		return len(machines) == 2 && machines[0].Healthy && machines[1].Healthy
	})
	_, portA, _ := net.SplitHostPort(listenA)
	_, portB, _ := net.SplitHostPort(listenB)
	tokenPort, _ := strconv.Atoi(func() string { _, p, _ := net.SplitHostPort(freeAddr(t)); return p }())

	var result struct {
		FailedServerSet, FailedClientSet []string
	}
	_ = json.Unmarshal(d.API(http.MethodPost, "/cluster/assign/all_server/"+app, nil, map[string]any{
		"clusterMap": []map[string]any{{
			"machineId": "127.0.0.1@" + portA, "ip": "127.0.0.1", "port": tokenPort, "belongToApp": true,
			"clientSet": []string{"127.0.0.1@" + portB}, "namespaceSet": []string{app}, "maxAllowedQps": 20000,
		}},
		"remainingList": []string{},
	}), &result)
	if len(result.FailedServerSet)+len(result.FailedClientSet) != 0 {
		t.Fatalf("the dashboard's assignment failed: servers %v, clients %v", result.FailedServerSet, result.FailedClientSet)
	}

	// The cluster page's server list: A, serving, with B connected.
	type serverState struct {
		IP             string
		Port           int
		ConnectedCount int
		State          struct {
			Port         int
			Embedded     bool
			AppName      string
			NamespaceSet []string
			Connection   []struct {
				Namespace     string
				ConnectionSet []struct{ Address string }
			}
			RequestLimitData []struct {
				Namespace     string
				MaxAllowedQps float64
			}
		}
	}
	var servers []serverState
	waitFor(t, 20*time.Second, "A listed as a token server with one client", func() bool {
		_ = json.Unmarshal(d.API(http.MethodGet, "/cluster/server_state/"+app, nil, nil), &servers)
		return len(servers) == 1 && servers[0].ConnectedCount == 1
	})
	s := servers[0]
	if s.Port != tokenPort || !s.State.Embedded || s.State.AppName != app || len(s.State.RequestLimitData) == 0 {
		t.Errorf("server state %+v", s)
	}
	for _, l := range s.State.RequestLimitData {
		if l.MaxAllowedQps != 20000 {
			t.Errorf("namespace %s: maxAllowedQps %v, want the assigned 20000", l.Namespace, l.MaxAllowedQps)
		}
	}

	// The page's client list: B, started, pointing at A's token port.
	var clients []struct {
		IP          string
		CommandPort int
		State       struct {
			ClientConfig struct {
				ServerHost     string
				ServerPort     int
				RequestTimeout int
			}
		}
	}
	_ = json.Unmarshal(d.API(http.MethodGet, "/cluster/client_state/"+app, nil, nil), &clients)
	pb, _ := strconv.Atoi(portB)
	found := false
	for _, c := range clients {
		if c.CommandPort == pb {
			found = true
			if cc := c.State.ClientConfig; cc.ServerHost != "127.0.0.1" || cc.ServerPort != tokenPort || cc.RequestTimeout != 20 {
				t.Errorf("B's client config %+v, want 127.0.0.1:%d with 20 ms", cc, tokenPort)
			}
		}
	}
	if !found {
		t.Errorf("B not in the page's client list: %+v", clients)
	}
}

// -serve-tokens makes instance A a token server and -token-server makes B
// its client: B's createOrder rule is in cluster mode and its calls draw
// from A's budget.
func TestTokenServerFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two instances of the example")
	}
	bin := filepath.Join(t.TempDir(), "orders")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	_, tokenPort, _ := net.SplitHostPort(freeAddr(t))
	listenA, listenB := freeAddr(t), freeAddr(t)
	common := []string{"-duration=10m", "-qps=40", "-slow-until=0s", "-limit=10", "-app=orders-tokens"}
	startOrders(t, bin, append(common, "-serve-tokens="+tokenPort, "-transport="+listenA)...)
	startOrders(t, bin, append(common, "-token-server=127.0.0.1:"+tokenPort, "-transport="+listenB)...)

	var modeA, modeB struct {
		Mode                             int
		ClientAvailable, ServerAvailable bool
	}
	_ = json.Unmarshal([]byte(getCmd(t, listenA, "getClusterMode", nil)), &modeA)
	_ = json.Unmarshal([]byte(getCmd(t, listenB, "getClusterMode", nil)), &modeB)
	if modeA.Mode != 1 || !modeA.ServerAvailable || modeB.Mode != 0 || !modeB.ClientAvailable {
		t.Fatalf("cluster modes: A %+v, B %+v; want A a server, B a client", modeA, modeB)
	}
	// The load puts the rules in force just after the command center starts.
	waitFor(t, 10*time.Second, "B's flow rule in cluster mode with flowId 1", func() bool {
		var rulesB []struct {
			ClusterMode   bool
			ClusterConfig struct{ FlowID int64 }
		}
		_ = json.Unmarshal([]byte(getCmd(t, listenB, "getRules", url.Values{"type": {"flow"}})), &rulesB)
		return len(rulesB) == 1 && rulesB[0].ClusterMode && rulesB[0].ClusterConfig.FlowID == 1
	})
	// B's calls reach A's token server: A serves one client, and the
	// budget's passes are the fleet's, near -limit.
	waitFor(t, 20*time.Second, "B connected to A's token server, tokens served", func() bool {
		var info struct {
			Connection []struct {
				Namespace      string
				ConnectedCount int
			}
		}
		_ = json.Unmarshal([]byte(getCmd(t, listenA, "cluster/server/info", nil)), &info)
		var metrics map[string][]struct{ PassQps float64 }
		_ = json.Unmarshal([]byte(getCmd(t, listenA, "cluster/server/metricList", url.Values{"namespace": {"orders-tokens"}})), &metrics)
		connected := false
		for _, g := range info.Connection {
			connected = connected || (g.Namespace == "orders-tokens" && g.ConnectedCount == 1)
		}
		m := metrics["createOrder"]
		return connected && len(m) == 1 && m[0].PassQps >= 5 && m[0].PassQps <= 11
	})
}
