package transport

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func unmarshalAny(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// subsetOf reports the first difference where want (Go's answer) is not
// contained in got (what Java read back): every Go property must survive
// Java's parse with its value (a misnamed or mistyped one would not).
func subsetOf(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: Java has %T, Go an object", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: Java dropped it (Go %v)", path, k, wv)
			}
			if d := subsetOf(wv, gv, path+"."+k); d != "" {
				return d
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: Java has %v, Go %v", path, got, want)
		}
		for i := range w {
			if d := subsetOf(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	default:
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("%s: Java read %v (%T), Go sent %v (%T)", path, got, got, want, want)
		}
	}
	return ""
}

// TestJavaParsersReadTheAnswers hands the Go command center's answers to
// Sentinel's own parsers: MetricNode.fromThinString, fastjson into NodeVo,
// FlowRule, DegradeRule, SystemRule, AuthorityRule and ParamFlowRule, and
// Sentinel's rule validators.
func TestJavaParsersReadTheAnswers(t *testing.T) {
	javaMain(t)
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name()+"/createOrder", runtime.WithResourceType(runtime.ResourceTypeRPC))
	loadTraffic(t, f, res)
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{
			{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 3, StatIntervalMs: 2000},
			{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 50, ControlBehavior: runtime.BehaviorWarmUp, WarmUpPeriodSec: 5},
		},
		Degrade:   []runtime.DegradeRule{{Resource: res.Name(), Grade: runtime.DegradeSlowRatio, Count: 200, SlowRatioThreshold: 0.5, TimeWindowSec: 10}},
		System:    []runtime.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: 0.8, QPS: 100000, AvgRT: -1, MaxThread: -1}},
		Authority: []runtime.AuthorityRule{{Resource: res.Name(), LimitApp: "appA,appB", Strategy: runtime.AuthorityBlack}},
		ParamFlow: []runtime.ParamFlowRule{{Resource: res.Name(), Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 5,
			DurationInSec: 1, Items: []runtime.ParamFlowItem{{Object: "sku-1", ClassType: "String", Count: 50}}}},
	}); err != nil {
		t.Fatal(err)
	}
	answers := map[string]string{}
	get := func(key, cmd string, q url.Values) {
		code, body := f.get(cmd, q)
		if code != 200 {
			t.Fatalf("%s: %d %s", cmd, code, body)
		}
		answers[key] = body
	}
	sec0 := epochMs + clockStart.Milliseconds()
	get("metric", "metric", url.Values{"startTime": {ms(sec0)}, "endTime": {ms(sec0 + 60_000)}, "identity": {res.Name()}})
	get("clusterNode", "clusterNode", url.Values{"type": {"zero"}})
	get("jsonTree", "jsonTree", url.Values{"type": {"root"}})
	for _, k := range []string{"flow", "degrade", "system", "authority"} {
		get(k, "getRules", url.Values{"type": {k}})
	}
	get("paramFlow", "getParamFlowRules", nil)
	for k, body := range answers {
		if body == "[]" || body == "" {
			t.Fatalf("%s answered nothing", k)
		}
	}

	java := unmarshalAny(t, javaParse(t, answers)).(map[string]any)

	// Metric lines: what fromThinString read is what the Go sampler has.
	lines := f.sampler.Lines(sec0, sec0+60_000)
	var want []any
	for _, l := range lines {
		if l.Name != res.Name() || l.Empty() || l.Partial {
			continue
		}
		want = append(want, map[string]any{"timestamp": float64(l.Time), "resource": l.Name, "passQps": float64(l.Pass),
			"blockQps": float64(l.Block), "successQps": float64(l.Success), "exceptionQps": float64(l.Exception),
			"rt": float64(l.AvgRTMs()), "occupiedPassQps": float64(l.OccupiedPass), "concurrency": float64(l.Concurrency),
			"classification": float64(runtime.ResourceTypeRPC)})
	}
	if len(want) != 61 {
		t.Fatalf("%d seconds in the sampler, want 61", len(want))
	}
	if d := subsetOf(want, java["metric"], "metric"); d != "" {
		t.Error(d)
	}
	for _, k := range []string{"clusterNode", "jsonTree", "flow", "degrade", "system", "authority", "paramFlow"} {
		if d := subsetOf(unmarshalAny(t, answers[k]), java[k], k); d != "" {
			t.Error(d)
		}
	}
	for _, k := range []string{"flowValid", "degradeValid", "authorityValid", "paramFlowValid"} {
		for i, v := range java[k].([]any) {
			if v != true {
				t.Errorf("Sentinel's validator refuses %s[%d]: %s", strings.TrimSuffix(k, "Valid"), i, answers[strings.TrimSuffix(k, "Valid")])
			}
		}
	}
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

// kinds maps a JSON value to the names of the JSON types of its leaves,
// the shape two answers must share.
func kinds(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = kinds(e)
		}
		return out
	case []any:
		if len(x) == 0 {
			return []any{}
		}
		return []any{kinds(x[0])}
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

type beat struct {
	form        url.Values
	contentType string
}

// TestJavaSimpleHTTPAnswersTheSame runs one workload through Sentinel's own
// simple-http command center and through this package, asks both what the
// dashboard asks, and compares the answers field by field: names, JSON
// types, and the values the workload fixes.
func TestJavaSimpleHTTPAnswersTheSame(t *testing.T) {
	javaMain(t)
	beats := make(chan beat, 64)
	dash := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if r.URL.Path == "/registry/machine" {
			select {
			case beats <- beat{r.PostForm, r.Header.Get("Content-Type")}:
			default:
			}
		}
		_, _ = w.Write([]byte(`{"success":true,"code":0,"msg":"success","data":null}`))
	}))
	defer dash.Close()
	dashAddr := strings.TrimPrefix(dash.URL, "http://")

	name := strings.ReplaceAll(t.Name(), "/", "_")
	limited, failing := name+".limited", name+".failing"
	flow := fmt.Sprintf(`[{"resource":%q,"grade":1,"count":5.0,"limitApp":"default","strategy":0,"controlBehavior":0}]`, limited)
	degrade := fmt.Sprintf(`[{"resource":%q,"grade":2,"count":100.0,"timeWindow":10,"minRequestAmount":5,"statIntervalMs":1000,"slowRatioThreshold":1.0,"limitApp":"default"}]`, failing)
	system := `[{"highestSystemLoad":-1.0,"highestCpuUsage":-1.0,"qps":1000000.0,"avgRt":-1,"maxThread":-1}]`
	authority := fmt.Sprintf(`[{"resource":%q,"limitApp":"appA,appB","strategy":1}]`, failing)
	param := fmt.Sprintf(`[{"resource":%q,"grade":1,"paramIdx":0,"count":100.0,"durationInSec":1,"paramFlowItemList":[{"object":"sku-1","classType":"String","count":500}]}]`, limited)
	rulesJSON, _ := jsonString(map[string]string{"flow": flow, "degrade": degrade, "system": system, "authority": authority, "paramFlow": param})

	javaPort := freePort(t)
	jv := startJavaServer(t, rulesJSON, "java-app", javaPort, dashAddr)
	javaBase := fmt.Sprintf("http://127.0.0.1:%d", javaPort)

	// The Go service: the same rules through a push, the same workload.
	srv, err := Start(Config{App: "go-app", Listen: "127.0.0.1:0", Dashboard: dashAddr, HeartbeatInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	goBase := "http://" + srv.Addr().String()
	resLimited, resFailing := runtime.NewResource(limited), runtime.NewResource(failing)
	send := func(base, cmd string, form url.Values) (int, string) {
		var resp *http.Response
		var err error
		if form != nil {
			resp, err = http.PostForm(base+"/"+cmd, form)
		} else {
			resp, err = http.Get(base + "/" + cmd)
		}
		if err != nil {
			t.Fatalf("%s %s: %v", base, cmd, err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = fmt.Fprint(&b, "")
		buf := make([]byte, 1<<20)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	for kind, data := range map[string]string{"flow": flow, "degrade": degrade, "system": system, "authority": authority} {
		if code, body := send(goBase, "setRules", url.Values{"type": {kind}, "data": {data}}); code != 200 || body != "success" {
			t.Fatalf("Go setRules %s: %d %q", kind, code, body)
		}
	}
	if code, body := send(goBase, "setParamFlowRules", url.Values{"data": {param}}); code != 200 || body != "success" {
		t.Fatalf("Go setParamFlowRules: %d %q", code, body)
	}

	// The workload, early in a second on both sides: 12 calls at 5 QPS
	// (5 pass, 7 blocked), 4 calls with a traced error.
	for time.Now().UnixMilli()%1000 > 300 {
		time.Sleep(10 * time.Millisecond)
	}
	goCall := func(res *runtime.Resource, n int, fail bool) {
		for range n {
			if e, b := res.Entry(t.Context()); b == nil {
				if fail {
					e.TraceError(fmt.Errorf("failed"))
				}
				e.Exit()
			}
		}
	}
	start := time.Now().UnixMilli() / 1000 * 1000 // the second the calls begin in
	goCall(resLimited, 12, false)
	goCall(resFailing, 4, true)
	jv.run("pass " + limited + " 12")
	jv.run("fail " + failing + " 4")

	// metric: sum each resource's lines over the window.
	type sums struct{ pass, block, success, exception, rt, occupied, concurrency, classification, fields, lines int64 }
	metric := func(base string, end int64) map[string]*sums {
		code, body := send(base, "metric?"+url.Values{"startTime": {ms(start)}, "endTime": {ms(end)}, "refetch": {"false"}}.Encode(), nil)
		if code != 200 {
			t.Fatalf("%s metric: %d %s", base, code, body)
		}
		out := map[string]*sums{}
		for _, l := range strings.Split(body, "\n") {
			f := strings.Split(l, "|")
			if len(f) < 7 || (f[1] != limited && f[1] != failing) {
				continue
			}
			s := out[f[1]]
			if s == nil {
				s = &sums{}
				out[f[1]] = s
			}
			n := func(i int) int64 { v, _ := strconv.ParseInt(f[i], 10, 64); return v }
			s.pass += n(2)
			s.block += n(3)
			s.success += n(4)
			s.exception += n(5)
			s.rt += n(6)
			s.occupied += n(7)
			s.concurrency += n(8)
			s.classification = n(9)
			s.fields = int64(len(f))
			s.lines++
		}
		return out
	}
	// Both sides file a second once it has ended (Java: its metric log,
	// flushed each second by a timer thread that a loaded machine delays),
	// so read until every call is filed on both sides, or give up after 20 s
	// and compare what there is.
	complete := func(m map[string]*sums) bool {
		l, f := m[limited], m[failing]
		return l != nil && f != nil && l.pass+l.block == 12 && f.success == 4
	}
	var gm, jm map[string]*sums
	for deadline := time.Now().Add(20 * time.Second); ; {
		time.Sleep(time.Second)
		end := time.Now().UnixMilli()/1000*1000 - 1000 // the last whole second
		gm, jm = metric(goBase, end), metric(javaBase, end)
		if complete(gm) && complete(jm) || time.Now().After(deadline) {
			break
		}
	}
	for _, r := range []string{limited, failing} {
		g, j := gm[r], jm[r]
		if g == nil || j == nil {
			t.Errorf("metric %s: Go %+v, Java %+v", r, g, j)
			continue
		}
		// A burst may straddle a second on one side only; response times
		// are real on both sides (a cold JVM's first calls take ms).
		g.lines, j.lines, g.rt, j.rt = 0, 0, 0, 0
		if *g != *j {
			t.Errorf("metric %s: Go %+v, Java %+v", r, *g, *j)
		}
	}
	if g := gm[limited]; g == nil || g.pass != 5 || g.block != 7 {
		t.Errorf("Go metric for the limited resource %+v, want 5 passes and 7 blocks", g)
	}

	// clusterNode: the same properties with the same JSON types, and the
	// same one-minute counts.
	nodeOf := func(base string) map[string]map[string]any {
		_, body := send(base, "clusterNode?type=zero", nil)
		var nodes []map[string]any
		if err := json.Unmarshal([]byte(body), &nodes); err != nil {
			t.Fatalf("%s clusterNode %q: %v", base, body, err)
		}
		out := map[string]map[string]any{}
		for _, n := range nodes {
			if r, _ := n["resource"].(string); r == limited || r == failing {
				out[r] = n
			}
		}
		return out
	}
	gn, jn := nodeOf(goBase), nodeOf(javaBase)
	for _, r := range []string{limited, failing} {
		if !reflect.DeepEqual(kinds(gn[r]), kinds(jn[r])) {
			t.Errorf("clusterNode %s shapes differ:\nGo   %v\nJava %v", r, kinds(gn[r]), kinds(jn[r]))
		}
		for _, k := range []string{"oneMinutePass", "oneMinuteBlock", "oneMinuteTotal", "oneMinuteException", "passQps", "blockQps", "threadNum"} {
			if gn[r][k] != jn[r][k] {
				t.Errorf("clusterNode %s %s: Go %v, Java %v", r, k, gn[r][k], jn[r][k])
			}
		}
	}

	// jsonTree: the same levels (root, context, resources), same shapes.
	tree := func(base string) (levels []string, shape any) {
		_, body := send(base, "jsonTree?type=root", nil)
		var nodes []map[string]any
		if err := json.Unmarshal([]byte(body), &nodes); err != nil {
			t.Fatalf("%s jsonTree: %v", base, err)
		}
		byID := map[string]map[string]any{}
		for _, n := range nodes {
			byID[n["id"].(string)] = n
		}
		for _, n := range nodes {
			r := n["resource"].(string)
			if r != limited && r != failing && r != rootName && r != defaultContextName {
				continue
			}
			depth := 0
			for p := n; p["parentId"] != nil; p = byID[p["parentId"].(string)] {
				depth++
			}
			levels = append(levels, fmt.Sprintf("%d:%s", depth, r))
			if r == limited {
				shape = kinds(n)
			}
		}
		sort.Strings(levels)
		return levels, shape
	}
	gl, gs := tree(goBase)
	jl, js := tree(javaBase)
	if !reflect.DeepEqual(gl, jl) || !reflect.DeepEqual(gs, js) {
		t.Errorf("jsonTree differs:\nGo   %v %v\nJava %v %v", gl, gs, jl, js)
	}

	// Rules read back, and the other answers the dashboard reads.
	for _, q := range []string{"getRules?type=flow", "getRules?type=degrade", "getRules?type=system", "getRules?type=authority",
		"getParamFlowRules", "getRules?type=bogus", "getClusterMode", "noSuchCommand"} {
		gc, gb := send(goBase, q, nil)
		jc, jb := send(javaBase, q, nil)
		if gc != jc {
			t.Errorf("%s: Go %d %q, Java %d %q", q, gc, gb, jc, jb)
			continue
		}
		if gc != 200 {
			if gb != jb {
				t.Errorf("%s: Go %q, Java %q", q, gb, jb)
			}
			continue
		}
		gv, jv := unmarshalAny(t, gb), unmarshalAny(t, jb)
		if q == "getClusterMode" {
			// lastModified is a time on Java's side; the rest must match.
			delete(gv.(map[string]any), "lastModified")
			delete(jv.(map[string]any), "lastModified")
		}
		if !reflect.DeepEqual(gv, jv) {
			t.Errorf("%s:\nGo   %s\nJava %s", q, gb, jb)
		}
	}

	// Heartbeats: the same form fields and Content-Type.
	seen := map[string]beat{}
	deadline := time.After(15 * time.Second)
	for len(seen) < 2 {
		select {
		case b := <-beats:
			seen[b.form.Get("app")] = b
		case <-deadline:
			t.Fatalf("heartbeats seen from %v only", seen)
		}
	}
	gb, jb := seen["go-app"], seen["java-app"]
	keys := func(v url.Values) []string {
		var k []string
		for key := range v {
			k = append(k, key)
		}
		sort.Strings(k)
		return k
	}
	if !reflect.DeepEqual(keys(gb.form), keys(jb.form)) || !strings.EqualFold(gb.contentType, jb.contentType) {
		t.Errorf("heartbeats differ:\nGo   %v %q\nJava %v %q", gb.form, gb.contentType, jb.form, jb.contentType)
	}
	if jb.form.Get("port") != strconv.Itoa(javaPort) || gb.form.Get("port") != strconv.Itoa(srv.Addr().(*net.TCPAddr).Port) {
		t.Errorf("heartbeat ports: Go %s, Java %s", gb.form.Get("port"), jb.form.Get("port"))
	}
	_ = resFailing
}
