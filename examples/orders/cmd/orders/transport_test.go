package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTransportFlags starts the example binary with -transport on a free
// loopback port and -dashboard pointing at a stand-in dashboard, then asks
// it what the Sentinel dashboard asks: heartbeats must name the command
// port, metric must list createOrder's seconds and clusterNode its node.
func TestTransportFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example for several seconds")
	}
	beats := make(chan url.Values, 16)
	dash := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.URL.Path == "/registry/machine" {
			select {
			case beats <- r.PostForm:
			default:
			}
		}
		_, _ = io.WriteString(w, `{"success":true,"code":0,"msg":"success","data":null}`)
	}))
	defer dash.Close()

	// A copy of the example's rule file, which a push must leave as it is,
	// and the machine-owned file pushes are kept in.
	dir := t.TempDir()
	rulesFile, pushFile := filepath.Join(dir, "rules.toml"), filepath.Join(dir, "rules.pushed.json")
	orig, err := os.ReadFile("../../rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rulesFile, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	addr := startBinary(t, regexp.MustCompile(`sentinel command center on (127\.0\.0\.1:\d+)`), "its command center listens",
		"-duration=30s", "-qps=50", "-slow-until=0s", "-app=orders-test",
		"-rules="+rulesFile, "-rules-push="+pushFile, "-transport=127.0.0.1:0", "-dashboard="+strings.TrimPrefix(dash.URL, "http://"))

	select {
	case form := <-beats:
		_, port, _ := strings.Cut(addr, ":")
		if form.Get("app") != "orders-test" || form.Get("port") != port || form.Get("ip") != "127.0.0.1" {
			t.Errorf("heartbeat %v", form)
		}
	case <-time.After(10 * time.Second):
		t.Error("no heartbeat reached the dashboard")
	}

	get := func(cmd string, q url.Values) string { return getCmd(t, addr, cmd, q) }
	// Fetch completed seconds as the dashboard's MetricFetcher does, until
	// createOrder's traffic shows (a loaded machine may start it late).
	var pass int64
	var body string
	for deadline := time.Now().Add(20 * time.Second); pass == 0 && time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		now := time.Now().UnixMilli() / 1000 * 1000
		body = get("metric", url.Values{"startTime": {strconv.FormatInt(now-6000, 10)}, "endTime": {strconv.FormatInt(now-1000, 10)}, "refetch": {"false"}})
		for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
			f := strings.Split(line, "|")
			if len(f) != 10 || f[1] != "createOrder" {
				continue
			}
			ts, _ := strconv.ParseInt(f[0], 10, 64)
			if ts%1000 != 0 || ts < now-6000 || ts > now-1000 {
				t.Errorf("line %q outside the window", line)
			}
			p, _ := strconv.ParseInt(f[2], 10, 64)
			pass += p
		}
	}
	if pass == 0 {
		t.Errorf("no createOrder passes in the metric answer:\n%s", body)
	}
	var nodes []struct {
		Resource      string `json:"resource"`
		OneMinutePass int64  `json:"oneMinutePass"`
	}
	if err := json.Unmarshal([]byte(get("clusterNode", url.Values{"type": {"zero"}})), &nodes); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range nodes {
		if n.Resource == "createOrder" {
			found = n.OneMinutePass > 0
		}
	}
	if !found {
		t.Errorf("clusterNode has no createOrder node with traffic: %+v", nodes)
	}

	// A push from the dashboard is in force and kept in the -rules-push
	// file; the hand-written -rules file stays byte for byte as it was.
	push := `[{"resource":"createOrder","grade":1,"count":42.0,"limitApp":"default","strategy":0,"controlBehavior":0}]`
	resp, err := http.PostForm("http://"+addr+"/setRules", url.Values{"type": {"flow"}, "data": {push}})
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(answer) != "success" {
		t.Fatalf("setRules: %d %q", resp.StatusCode, answer)
	}
	if body := get("getRules", url.Values{"type": {"flow"}}); !strings.Contains(body, `"count":42.0`) {
		t.Errorf("getRules after the push: %s", body)
	}
	if saved, err := os.ReadFile(rulesFile); err != nil || string(saved) != string(orig) {
		t.Errorf("the -rules file after the push (%v):\n%s", err, saved)
	}
	if kept, err := os.ReadFile(pushFile); err != nil || !strings.Contains(string(kept), `"count": 42`) || strings.Contains(string(kept), "degrade") {
		t.Errorf("the -rules-push file after the push (%v):\n%s", err, kept)
	}

	// The next start puts the pushed rule in force over the file's, whose
	// breaker (slowCall = "200ms") is in force as written.
	addr2 := startBinary(t, regexp.MustCompile(`sentinel command center on (127\.0\.0\.1:\d+)`), "the restarted service listens",
		"-duration=30s", "-qps=1", "-slow-until=0s", "-app=orders-test", "-rules="+rulesFile, "-rules-push="+pushFile, "-transport=127.0.0.1:0")
	if body := getCmd(t, addr2, "getRules", url.Values{"type": {"flow"}}); !strings.Contains(body, `"count":42.0`) {
		t.Errorf("getRules after a restart: %s, want the pushed count 42", body)
	}
	if body := getCmd(t, addr2, "getRules", url.Values{"type": {"degrade"}}); !strings.Contains(body, `"count":200.0`) {
		t.Errorf("getRules type=degrade after a restart: %s, want the file's slow-call breaker", body)
	}
	if saved, _ := os.ReadFile(rulesFile); string(saved) != string(orig) {
		t.Errorf("the -rules file after a restart:\n%s", saved)
	}
}

// getCmd asks the command center at addr for cmd and returns the answer.
func getCmd(t *testing.T, addr, cmd string, q url.Values) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/" + cmd + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d %s", cmd, resp.StatusCode, b)
	}
	return string(b)
}

func TestTransportFlagsMisuse(t *testing.T) {
	for _, args := range [][]string{
		{"-read-only"},                                    // nothing to be read-only
		{"-simulate", "-transport=127.0.0.1:0"},           // simulated seconds are not wall-clock seconds
		{"-simulate", "-dashboard=127.0.0.1:8080"},        // -dashboard starts the command center too
		{"-rules-push=p.json", "-transport=127.0.0.1:0"},  // pushes laid over no rules file
		{"-rules=../../rules.toml", "-rules-push=p.json"}, // nothing pushes
		{"-nacos=127.0.0.1:1", "-rules=../../rules.toml"}, // two sources of every kind
		{"-nacos=127.0.0.1:1", "-simulate"},               // Nacos follows wall-clock time
	} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestDashboardAloneListensBesideADashboard: -dashboard without -transport
// starts the command center on the example's default, which is not the
// port a dashboard on the same host binds for itself (8719), and a port in
// use is reported with what to do. The test holds the default port (or
// finds it held) so the example never serves.
func TestDashboardAloneListensBesideADashboard(t *testing.T) {
	if strings.HasSuffix(dashboardListen, ":8719") {
		t.Fatalf("default command port %s is the one the dashboard binds for itself", dashboardListen)
	}
	if ln, err := net.Listen("tcp", dashboardListen); err == nil {
		defer ln.Close()
	}
	err := run(context.Background(), []string{"-dashboard=127.0.0.1:1", "-duration=1s"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), dashboardListen) || !strings.Contains(err.Error(), "give -transport a free port") {
		t.Fatalf("run with -dashboard alone, %s taken: %v; want the listen error on it with the hint", dashboardListen, err)
	}
}
