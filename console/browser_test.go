package console

import (
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// requireServers reports whether a missing browser must fail the test
// rather than skip it (in CI, as for redis-server and etcd).
func requireServers() bool {
	return os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != ""
}

// browserTools returns the chromium binary, node and the directory of the
// browser driver (browsertest, with playwright-core installed by
// scripts/servers.sh), skipping or failing the test when one is missing.
func browserTools(t *testing.T) (chromium, node, dir string) {
	t.Helper()
	missing := func(what string) {
		msg := what + " is missing: run scripts/servers.sh (installs Debian's chromium and the npm packages of console/browsertest)"
		if requireServers() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		var err error
		if chromium, err = exec.LookPath("chromium"); err != nil {
			missing("chromium")
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	dir, err = filepath.Abs("browsertest")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		missing("playwright-core (console/browsertest/node_modules)")
	}
	return chromium, node, dir
}

// shownRow is what the page shows for one resource.
type shownRow struct {
	Second                            int64
	Pass, Block, Success, Error, RTMs int64
	Breakers                          []string
}

type box struct{ X, Y, Width, Height float64 }

type shown struct {
	Rows                    map[string]shownRow
	Charts                  map[string]box
	Transitions             [][]string
	FlowRules, DegradeRules int
	OtherRules              [][]string
	Status                  string
	Errors                  []string
}

// load runs calls of res until ctx ends, one every gap, each lasting rt and
// failing when fail says so.
func load(ctx context.Context, wg *sync.WaitGroup, res *runtime.Resource, gap, rt time.Duration, fail func(i int) bool) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			if e, be := res.Entry(ctx); be == nil {
				time.Sleep(rt)
				if fail(i) {
					e.TraceError(errors.New("boom"))
				}
				e.Exit()
			}
			time.Sleep(gap)
		}
	}()
}

// TestPageInBrowser serves the page on 127.0.0.1 for a service under load,
// loads it in headless chromium, checks that the numbers it shows are the
// runtime's (the sampler's record of the same seconds, and within the rules'
// limits), and inspects the screenshot: the chart region is not blank and
// holds the pass and block lines' colours.
func TestPageInBrowser(t *testing.T) {
	chromium, node, dir := browserTools(t)
	orders := runtime.NewResource("console-browser/orders")
	payments := runtime.NewResource("console-browser/payments")
	t.Cleanup(func() {
		_ = runtime.LoadRules(runtime.Rules{})
		_ = gateway.Load(nil, nil)
	})
	// A rule of every kind, each of which must be listed; none of the
	// others refuses the calls the load below makes.
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{{Resource: orders.Name(), Grade: runtime.FlowGradeQPS, Count: 40}},
		Degrade: []runtime.DegradeRule{{Resource: payments.Name(), Grade: runtime.DegradeErrorRatio, Count: 0.3,
			MinRequestAmount: 5, TimeWindowSec: 1}},
		ParamFlow: []runtime.ParamFlowRule{{Resource: "console-browser/detail", Grade: runtime.FlowGradeQPS, Count: 7}},
		System:    []runtime.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 100000, AvgRT: -1, MaxThread: -1}},
		Authority: []runtime.AuthorityRule{{Resource: payments.Name(), LimitApp: "crawler", Strategy: runtime.AuthorityBlack}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := gateway.Load([]gateway.FlowRule{{Resource: "console-browser-api", ResourceMode: gateway.ModeAPI, Count: 9}},
		[]gateway.APIDefinition{{Name: "console-browser-api", Predicates: []gateway.PathPredicate{{Pattern: "/api/**", MatchStrategy: gateway.MatchPrefix}}}}); err != nil {
		t.Fatal(err)
	}
	s := metrics.New(metrics.Config{Resources: func() []*runtime.Resource { return []*runtime.Resource{orders, payments} }})
	s.Start()
	defer s.Stop()
	c := New(Config{Sampler: s, Title: "browser test"})
	defer c.Close()
	srv := httptest.NewServer(c) // 127.0.0.1
	defer srv.Close()

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	// orders: about 150 calls a second of 2 ms against a limit of 40.
	load(ctx, &wg, orders, 5*time.Millisecond, 2*time.Millisecond, func(int) bool { return false })
	// payments: half its calls fail, so its breaker keeps opening.
	load(ctx, &wg, payments, 20*time.Millisecond, 5*time.Millisecond, func(i int) bool { return i%2 == 0 })

	shot := filepath.Join(t.TempDir(), "console.png")
	if keep := os.Getenv("SENTINELGEN_SCREENSHOT"); keep != "" {
		shot = keep
	}
	cctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, node, filepath.Join(dir, "check.js"), srv.URL+"/", shot, orders.Name(), payments.Name())
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node check.js: %v\n%s", err, stderr.String())
	}
	var got shown
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decoding %q: %v", out, err)
	}
	t.Logf("screenshot %s; page shows %+v", shot, got.Rows)
	if len(got.Errors) != 0 {
		t.Errorf("the page reported errors: %v", got.Errors)
	}
	if got.Status != "live" || got.FlowRules != 1 || got.DegradeRules != 1 {
		t.Errorf("status %q, %d flow and %d degrade rules listed, want live, 1 and 1", got.Status, got.FlowRules, got.DegradeRules)
	}

	// Every other kind in force is listed, with its resource.
	var kinds []string
	for _, row := range got.OtherRules {
		if len(row) < 3 {
			t.Fatalf("other rules row %q", row)
		}
		kinds = append(kinds, row[0]+" "+row[1])
	}
	wantKinds := []string{"param-flow console-browser/detail", "system (every inbound call)", "authority " + payments.Name(),
		"gw-flow console-browser-api", "gw-api-group console-browser-api"}
	if strings.Join(kinds, "|") != strings.Join(wantKinds, "|") {
		t.Errorf("other rules listed %q, want %q", kinds, wantKinds)
	}

	// The numbers shown are the runtime's for that second.
	for _, res := range []*runtime.Resource{orders, payments} {
		row, ok := got.Rows[res.Name()]
		if !ok {
			t.Fatalf("no row for %s", res.Name())
		}
		secs := s.Seconds(res.Name(), row.Second, row.Second)
		if len(secs) != 1 {
			t.Fatalf("%s: the sampler has no second %d", res.Name(), row.Second)
		}
		want := secs[0]
		if row.Pass != want.Pass || row.Block != want.Block || row.Success != want.Success ||
			row.Error != want.Exception || row.RTMs != want.AvgRTMs() {
			t.Errorf("%s second %d: page shows %+v, runtime counted %+v", res.Name(), row.Second, row, want)
		}
	}
	if r := got.Rows[orders.Name()]; r.Pass > 40 || r.Block == 0 || r.Pass == 0 {
		t.Errorf("orders shows pass %d block %d: want some blocks and at most the limit of 40 passes", r.Pass, r.Block)
	}
	if r := got.Rows[payments.Name()]; len(r.Breakers) != 1 {
		t.Errorf("payments shows breakers %v, want one", r.Breakers)
	}
	if len(got.Transitions) == 0 {
		t.Errorf("no breaker transition listed, though payments' breaker opens")
	}

	// The screenshot's chart is not blank: count the pixels that differ from
	// the white background, and those of the pass and block lines' colours.
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := got.Charts[orders.Name()]
	if !ok || b.Width < 100 || b.Height < 50 {
		t.Fatalf("chart of orders at %+v", b)
	}
	region := image.Rect(int(b.X), int(b.Y), int(b.X+b.Width), int(b.Y+b.Height)).Intersect(img.Bounds())
	var ink, green, red int
	for y := region.Min.Y; y < region.Max.Y; y++ {
		for x := region.Min.X; x < region.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 245 || g < 245 || bl < 245 {
				ink++
			}
			if near(r, g, bl, 0x2e, 0x9d, 0x4f) {
				green++
			}
			if near(r, g, bl, 0xd1, 0x40, 0x3a) {
				red++
			}
		}
	}
	area := region.Dx() * region.Dy()
	t.Logf("chart region %v: %d of %d pixels drawn, %d pass-green, %d block-red", region, ink, area, green, red)
	if ink < area/100 || green < 30 || red < 30 {
		t.Errorf("chart looks blank: %d of %d pixels drawn, %d pass-green, %d block-red", ink, area, green, red)
	}
}

// near reports whether colour (r, g, b) is within a small distance of
// (R, G, B), allowing for anti-aliasing.
func near(r, g, b, R, G, B uint32) bool {
	d := func(a, c uint32) uint32 {
		if a > c {
			return a - c
		}
		return c - a
	}
	return d(r, R) < 40 && d(g, G) < 40 && d(b, B) < 40
}
