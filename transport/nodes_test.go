package transport

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// javaNodeVo is NodeVo as fastjson fills it: absent properties stay null.
type javaNodeVo struct {
	ID                 *string `json:"id"`
	ParentID           *string `json:"parentId"`
	Resource           string  `json:"resource"`
	ThreadNum          *int32  `json:"threadNum"`
	PassQPS            *int64  `json:"passQps"`
	BlockQPS           *int64  `json:"blockQps"`
	TotalQPS           *int64  `json:"totalQps"`
	AverageRT          *int64  `json:"averageRt"`
	SuccessQPS         *int64  `json:"successQps"`
	ExceptionQPS       *int64  `json:"exceptionQps"`
	OneMinutePass      *int64  `json:"oneMinutePass"`
	OneMinuteBlock     *int64  `json:"oneMinuteBlock"`
	OneMinuteException *int64  `json:"oneMinuteException"`
	OneMinuteTotal     *int64  `json:"oneMinuteTotal"`
	Timestamp          *int64  `json:"timestamp"`
}

func v(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// loadTraffic gives res 61 seconds of 3 passes, 1 block and 1 error each,
// then 2 passes of 8 ms in the current, unfinished second.
func loadTraffic(t *testing.T, f *fixture, res *runtime.Resource) {
	t.Helper()
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 3}}); err != nil {
		t.Fatal(err)
	}
	for k := range 61 {
		f.at(time.Duration(k)*time.Second + 100*time.Millisecond)
		for i := range 4 {
			call(f.clock, res, time.Millisecond, i == 0)
		}
	}
	f.at(61*time.Second + 100*time.Millisecond)
	for range 2 {
		call(f.clock, res, 8*time.Millisecond, false)
	}
}

func TestClusterNodeAsNodeVo(t *testing.T) {
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name())
	quiet := runtime.NewResource(t.Name() + "/quiet")
	loadTraffic(t, f, res)
	code, body := f.get("clusterNode", url.Values{"type": {"zero"}})
	var nodes []javaNodeVo
	decodeJSON(t, body, &nodes)
	if code != 200 {
		t.Fatalf("clusterNode = %d %s", code, body)
	}
	var mine *javaNodeVo
	foundQuiet := false
	for i, n := range nodes {
		if n.ID != nil || n.ParentID != nil {
			t.Errorf("clusterNode %s carries id/parentId", n.Resource)
		}
		switch n.Resource {
		case res.Name():
			mine = &nodes[i]
		case quiet.Name():
			foundQuiet = true
		}
	}
	if mine == nil || !foundQuiet {
		t.Fatalf("clusterNode lacks the resources: %s", body)
	}
	// Per second: the 1 s window ending now (2 passes of 8 ms so far);
	// per minute: seconds 1..60, each 3 passes, 1 block, 1 error.
	if v(mine.PassQPS) != 2 || v(mine.BlockQPS) != 0 || v(mine.TotalQPS) != 2 || v(mine.AverageRT) != 8 ||
		v(mine.SuccessQPS) != 2 || v(mine.ExceptionQPS) != 0 || mine.ThreadNum == nil || *mine.ThreadNum != 0 {
		t.Errorf("per-second fields: %s", body)
	}
	if v(mine.OneMinutePass) != 180 || v(mine.OneMinuteBlock) != 60 || v(mine.OneMinuteTotal) != 240 || v(mine.OneMinuteException) != 60 {
		t.Errorf("one-minute fields: pass %d block %d total %d exception %d", v(mine.OneMinutePass), v(mine.OneMinuteBlock),
			v(mine.OneMinuteTotal), v(mine.OneMinuteException))
	}
	if ts := v(mine.Timestamp); ts < time.Now().UnixMilli()-5000 {
		t.Errorf("timestamp %d is not now", ts)
	}
	_, body = f.get("clusterNode", url.Values{"type": {"notZero"}})
	if strings.Contains(body, `"`+quiet.Name()+`"`) || !strings.Contains(body, `"`+res.Name()+`"`) {
		t.Errorf("notZero = %s", body)
	}
}

// The dashboard rebuilds the tree from parentId (ResourceTreeNode.
// fromNodeVoList): the node without a parent is the root.
func TestJSONTreeRebuildsAsTheDashboardDoes(t *testing.T) {
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name())
	loadTraffic(t, f, res)
	code, body := f.get("jsonTree", url.Values{"type": {"root"}})
	var nodes []javaNodeVo
	decodeJSON(t, body, &nodes)
	if code != 200 || len(nodes) < 3 {
		t.Fatalf("jsonTree = %d %s", code, body)
	}
	byID := map[string]javaNodeVo{}
	var root *javaNodeVo
	for i, n := range nodes {
		if n.ID == nil {
			t.Fatalf("node %s without id", n.Resource)
		}
		byID[*n.ID] = n
		if n.ParentID == nil || *n.ParentID == "" {
			if root != nil {
				t.Fatalf("two roots: %s", body)
			}
			root = &nodes[i]
		}
	}
	if root == nil || root.Resource != "machine-root" || nodes[0].Resource != "machine-root" {
		t.Fatalf("root: %s", body)
	}
	ctx := nodes[1]
	if ctx.Resource != "sentinel_default_context" || *ctx.ParentID != *root.ID {
		t.Fatalf("context node: %+v", ctx)
	}
	var mine *javaNodeVo
	for i, n := range nodes[2:] {
		if byID[*n.ParentID].Resource != "sentinel_default_context" {
			t.Errorf("resource %s hangs under %s", n.Resource, byID[*n.ParentID].Resource)
		}
		if n.Resource == res.Name() {
			mine = &nodes[2+i]
		}
	}
	if mine == nil || v(mine.OneMinutePass) != 180 {
		t.Fatalf("resource node: %+v", mine)
	}
	if v(root.OneMinutePass) < 180 || v(ctx.PassQPS) < 2 {
		t.Errorf("parents do not sum their children: root %+v ctx %+v", root, ctx)
	}
}

func TestUnknownAndHumanCommands(t *testing.T) {
	f := newFixture(t, Config{})
	if code, body := f.get("setClusterMode", nil); code != 400 || body != "Unknown command `setClusterMode`" {
		t.Errorf("unknown command = %d %q", code, body)
	}
	if code, body := f.get("", nil); code != 400 || body != "Invalid command" {
		t.Errorf("empty command = %d %q", code, body)
	}
	if code, body := f.get("version", nil); code != 200 || body != Version {
		t.Errorf("version = %d %q", code, body)
	}
	code, body := f.get("api", nil)
	var apis []struct{ URL, Desc string }
	decodeJSON(t, body, &apis)
	want := map[string]bool{"/metric": true, "/clusterNode": true, "/jsonTree": true, "/getRules": true, "/setRules": true,
		"/getParamFlowRules": true, "/setParamFlowRules": true, "/getClusterMode": true, "/version": true, "/api": true}
	for _, a := range apis {
		delete(want, a.URL)
	}
	if code != 200 || len(want) != 0 {
		t.Errorf("api = %d, missing %v", code, want)
	}
	req, _ := http.NewRequest(http.MethodPost, f.base+"/setRules", strings.NewReader(`{"type":"flow"}`))
	req.Header.Set("Content-Type", "application/json")
	if code, _ := f.do(req); code != http.StatusUnsupportedMediaType {
		t.Errorf("JSON body answered %d, want 415 as Java", code)
	}
}

type fakeTokens struct{}

func (fakeTokens) RequestToken(*runtime.FlowRule, int64, bool) runtime.TokenResult {
	return runtime.TokenResult{Status: runtime.TokenOK}
}

func TestGetClusterModeIsTruthful(t *testing.T) {
	up := true
	f := newFixture(t, Config{ClusterAvailable: func() bool { return up }})
	type mode struct {
		Mode            int   `json:"mode"`
		LastModified    int64 `json:"lastModified"`
		ClientAvailable bool  `json:"clientAvailable"`
		ServerAvailable bool  `json:"serverAvailable"`
	}
	var m mode
	_, body := f.get("getClusterMode", nil)
	decodeJSON(t, body, &m)
	if m != (mode{Mode: -1, LastModified: -1}) {
		t.Errorf("without a token service: %s", body)
	}
	prev := runtime.SetTokenService(fakeTokens{})
	defer runtime.SetTokenService(prev)
	_, body = f.get("getClusterMode", nil)
	decodeJSON(t, body, &m)
	if m.Mode != 0 || !m.ClientAvailable || m.ServerAvailable || m.LastModified <= 0 {
		t.Errorf("with a token service: %s", body)
	}
	up = false
	_, body = f.get("getClusterMode", nil)
	decodeJSON(t, body, &m)
	if m.Mode != 0 || m.ClientAvailable {
		t.Errorf("with the token service down: %s", body)
	}
}

// dashboardVersion is the dashboard's VersionUtils.parseVersion: major,
// minor, fix from "major.minor.fix[-postfix]"; ok false for what it
// cannot read.
func dashboardVersion(s string) (major, minor, fix int, ok bool) {
	s, _, _ = strings.Cut(s, "-")
	parts := strings.Split(s, ".")
	if len(parts) < 1 || len(parts) > 3 {
		return 0, 0, 0, false
	}
	nums := make([]int, 3)
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, 0, 0, false
		}
		nums[i] = n
	}
	return nums[0], nums[1], nums[2], nums[0] >= 1
}

func TestHeartbeatForm(t *testing.T) {
	got := make(chan *http.Request, 4)
	forms := make(chan url.Values, 4)
	dash := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		got <- r
		forms <- r.PostForm
		_, _ = w.Write([]byte(`{"success":true,"code":0,"msg":"success","data":null}`))
	}))
	defer dash.Close()
	before := time.Now().UnixMilli()
	f := newFixture(t, Config{App: "orders-go", Dashboard: strings.TrimPrefix(dash.URL, "http://"), HeartbeatInterval: 50 * time.Millisecond, Hostname: "box1"})
	for i := range 2 { // the first at once, the next an interval later
		var r *http.Request
		select {
		case r = <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("heartbeat %d never came", i)
		}
		form := <-forms
		if r.Method != http.MethodPost || r.URL.Path != "/registry/machine" ||
			r.Header.Get("Content-Type") != "application/x-www-form-urlencoded; charset=UTF-8" {
			t.Errorf("heartbeat request %s %s %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		_, port, _ := strings.Cut(f.srv.Addr().String(), ":")
		if form.Get("app") != "orders-go" || form.Get("app_type") != "0" || form.Get("hostname") != "box1" ||
			form.Get("ip") != "127.0.0.1" || form.Get("port") != port {
			t.Errorf("heartbeat form %v", form)
		}
		if maj, min, _, ok := dashboardVersion(form.Get("v")); !ok || maj != 1 || min < 8 {
			t.Errorf("v=%q is not a version the dashboard reads as >= 1.8", form.Get("v"))
		}
		if ts, err := strconv.ParseInt(form.Get("version"), 10, 64); err != nil || ts < before {
			t.Errorf("version=%q is not the heartbeat's time in ms", form.Get("version"))
		}
	}
}

func TestHeartbeatRefusesNonIPv4(t *testing.T) {
	_, err := Start(Config{Listen: "127.0.0.1:0", Dashboard: "127.0.0.1:1", HeartbeatIP: "::1"})
	if err == nil || !strings.Contains(err.Error(), "IPv4") {
		t.Errorf("Start with an IPv6 heartbeat address: %v", err)
	}
}

// A Go service's command center answers on loopback by default.
func TestDefaultListenIsLoopback(t *testing.T) {
	if !strings.HasPrefix(DefaultListen, "127.0.0.1:") {
		t.Errorf("DefaultListen = %s", DefaultListen)
	}
}
