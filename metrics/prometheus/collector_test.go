package prometheus

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/metrics/exposition"
	"github.com/sentinelgen/sentinelgen/runtime"
)

const start = 1000 * time.Second

// workload declares resource name with a QPS 2 flow rule and an error-count
// breaker under a manual clock, sampled by a Sampler polled by hand, and
// runs two seconds of calls: second 0 has 5 calls of 10 ms (2 admitted, one
// failing; 3 blocked by flow), second 1 two failing calls that open the
// breaker, then 4 calls it refuses.
func workload(t *testing.T, name string) *metrics.Sampler {
	t.Helper()
	clock := runtime.NewManualClock(start)
	runtime.SetClock(clock)
	res := runtime.NewResource(name)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	if err := runtime.LoadRules(runtime.Rules{
		Flow:    []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 2}},
		Degrade: []runtime.DegradeRule{{Resource: name, Grade: runtime.DegradeErrorCount, Count: 2, MinRequestAmount: 1, TimeWindowSec: 30, StatIntervalMs: 60_000}},
	}); err != nil {
		t.Fatal(err)
	}
	s := metrics.New(metrics.Config{
		WallMs:    func() int64 { return 1_764_590_000_000 + clock.Now().Milliseconds() },
		Resources: func() []*runtime.Resource { return []*runtime.Resource{res} },
	})
	s.Poll()
	call := func(rt time.Duration, fail bool) {
		e, be := res.Entry(context.Background())
		if be != nil {
			return
		}
		clock.Advance(rt)
		if fail {
			e.TraceError(errors.New("boom"))
		}
		e.Exit()
	}
	endSecond := func() {
		clock.Set(clock.Now().Truncate(time.Second) + time.Second + 100*time.Millisecond)
		s.Poll()
		clock.Advance(500 * time.Millisecond)
		s.Poll()
	}
	call(10*time.Millisecond, true)
	for range 4 {
		call(10*time.Millisecond, false)
	}
	endSecond()
	call(5*time.Millisecond, true)
	call(5*time.Millisecond, true)
	endSecond()
	for range 4 {
		call(0, false)
	}
	return s
}

// TestScrapeRealRegistry registers the Collector in a pedantic registry
// (which checks every metric against its description), scrapes it through
// promhttp on 127.0.0.1 and compares the families with what the workload
// did.
func TestScrapeRealRegistry(t *testing.T) {
	name := t.Name() + "/orders"
	s := workload(t, name)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewCollector(exposition.New(s)))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.PanicOnError}))
	defer srv.Close()

	var errs []*runtime.BlockError
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			errs = r.BlockErrors(nil)
		}
	}
	if len(errs) != 2 {
		t.Fatalf("block errors %v", errs)
	}
	flowRule, breakerRule := errs[0].Rule(), errs[1].Rule()
	want := fmt.Sprintf(`
# HELP sentinel_requests_total Calls by result: pass (admitted) or block, with the kind of rule that blocked (flow, degrade, param-flow, system, authority).
# TYPE sentinel_requests_total counter
sentinel_requests_total{block_type="",resource=%[1]q,result="pass"} 4
sentinel_requests_total{block_type="flow",resource=%[1]q,result="block"} 3
sentinel_requests_total{block_type="degrade",resource=%[1]q,result="block"} 4
# HELP sentinel_errors_total Completed calls with a traced error.
# TYPE sentinel_errors_total counter
sentinel_errors_total{resource=%[1]q} 3
# HELP sentinel_completed_total Completed calls (Exit), failed ones included.
# TYPE sentinel_completed_total counter
sentinel_completed_total{resource=%[1]q} 4
# HELP sentinel_response_time_seconds_total Sum of the completed calls' response times; divide its rate by sentinel_completed_total's for the mean.
# TYPE sentinel_response_time_seconds_total counter
sentinel_response_time_seconds_total{resource=%[1]q} 0.03
# HELP sentinel_circuit_breaker_state Circuit breaker state: 1 for the breaker's current state (closed, open, half_open), 0 for the others.
# TYPE sentinel_circuit_breaker_state gauge
sentinel_circuit_breaker_state{resource=%[1]q,rule=%[2]q,state="closed"} 0
sentinel_circuit_breaker_state{resource=%[1]q,rule=%[2]q,state="half_open"} 0
sentinel_circuit_breaker_state{resource=%[1]q,rule=%[2]q,state="open"} 1
# HELP sentinel_rule_blocked_total Calls each rule in force blocked since it was loaded.
# TYPE sentinel_rule_blocked_total counter
sentinel_rule_blocked_total{block_type="degrade",resource=%[1]q,rule=%[2]q} 4
sentinel_rule_blocked_total{block_type="flow",resource=%[1]q,rule=%[3]q} 3
# HELP sentinel_flow_rule_threshold Flow rule threshold: calls per second (grade qps) or calls in flight (grade concurrency); index is the rule's position in the rules in force.
# TYPE sentinel_flow_rule_threshold gauge
sentinel_flow_rule_threshold{grade="qps",index="0",resource=%[1]q} 2
# HELP sentinel_degrade_rule_threshold Degrade rule threshold: the slow-call ratio (slow_ratio), the error ratio (error_ratio) or the error count (error_count) above which the breaker opens.
# TYPE sentinel_degrade_rule_threshold gauge
sentinel_degrade_rule_threshold{grade="error_count",index="0",resource=%[1]q} 2
`, name, breakerRule, flowRule)
	if err := testutil.ScrapeAndCompare(srv.URL, strings.NewReader(want),
		"sentinel_requests_total", "sentinel_errors_total", "sentinel_completed_total",
		"sentinel_response_time_seconds_total", "sentinel_circuit_breaker_state", "sentinel_rule_blocked_total",
		"sentinel_flow_rule_threshold", "sentinel_degrade_rule_threshold"); err != nil {
		t.Error(err)
	}
	// No label names the process: a restart continues the same series.
	fams := scrape(t, srv.URL)
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "pid" || l.GetName() == "hostname" || l.GetName() == "host" {
					t.Errorf("%s has label %s", name, l.GetName())
				}
			}
		}
	}
	// Prometheus's own linter (promlint) finds nothing to say about the names.
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}

// TestTextWriterMatchesClientGolang serves the same Exporter through the
// standard-library writer (what the example's /metrics uses) and through
// client_golang, and checks that Prometheus's parser reads the same
// families from both.
func TestTextWriterMatchesClientGolang(t *testing.T) {
	name := t.Name() + `/a "quoted" \ name`
	s := workload(t, name)
	x := exposition.New(s)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewCollector(x))
	viaClient := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer viaClient.Close()
	viaText := httptest.NewServer(x)
	defer viaText.Close()
	a, b := scrape(t, viaClient.URL), scrape(t, viaText.URL)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("client_golang served %d families, the text writer %d", len(a), len(b))
	}
	for name, fa := range a {
		fb, ok := b[name]
		if !ok {
			t.Errorf("the text writer lacks %s", name)
			continue
		}
		if ga, gb := render(fa), render(fb); ga != gb {
			t.Errorf("%s differs:\nclient_golang %s\ntext writer   %s", name, ga, gb)
		}
	}
}

// scrape GETs url and parses the answer with Prometheus's text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parsing %s: %v", url, err)
	}
	return fams
}

// render is a family's help, type and series, series sorted, for comparison.
func render(f *dto.MetricFamily) string {
	var lines []string
	for _, m := range f.GetMetric() {
		var ls []string
		for _, l := range m.GetLabel() {
			ls = append(ls, l.GetName()+"="+l.GetValue())
		}
		sort.Strings(ls)
		v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
		lines = append(lines, fmt.Sprint(ls, v))
	}
	sort.Strings(lines)
	return f.GetHelp() + "|" + f.GetType().String() + "|" + strings.Join(lines, ";")
}
