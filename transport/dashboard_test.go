package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// A Go stand-in for the Java dashboard: it sends the requests the 1.8.9
// dashboard sends (SentinelApiClient, MetricFetcher) and reads the answers
// by Java's rules (MetricNode.fromThinString, fastjson into NodeVo).

// epochMs is the wall time the manual clock's zero stands for.
const epochMs = 1_764_590_000_000

const clockStart = 1000 * time.Second

type fixture struct {
	t       *testing.T
	clock   *runtime.ManualClock
	sampler *metrics.Sampler
	srv     *Server
	base    string
}

// newFixture starts a command center on a free loopback port with a manual
// clock and a sampler the test polls.
func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	c := runtime.NewManualClock(clockStart)
	runtime.SetClock(c)
	f := &fixture{t: t, clock: c}
	f.sampler = metrics.New(metrics.Config{WallMs: f.wallMs})
	f.sampler.Poll()
	cfg.Sampler = f.sampler
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.App == "" {
		cfg.App = "orders-go"
	}
	srv, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.srv, f.base = srv, "http://"+srv.Addr().String()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		runtime.SetClock(nil)
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	return f
}

func (f *fixture) wallMs() int64 { return epochMs + f.clock.Now().Milliseconds() }

// at moves the manual clock to clockStart+d and lets the sampler read.
func (f *fixture) at(d time.Duration) {
	f.clock.Set(clockStart + d)
	f.sampler.Poll()
}

// get sends a command as the dashboard's GET (metric, getRules, ...).
func (f *fixture) get(cmd string, params url.Values) (int, string) {
	f.t.Helper()
	u := f.base + "/" + cmd
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Connection", "close")
	return f.do(req)
}

// post sends a command as the dashboard's POST for clients >= 1.6 (form
// body, with the charset for clients >= 1.7.1).
func (f *fixture) post(cmd string, form url.Values) (int, string) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.base+"/"+cmd, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	return f.do(req)
}

func (f *fixture) do(req *http.Request) (int, string) {
	f.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// metricNode is sentinel-core's MetricNode as fromThinString fills it.
type metricNode struct {
	Timestamp                                       int64
	Resource                                        string
	PassQPS, BlockQPS, SuccessQPS, ExceptionQPS, RT int64
	OccupiedPassQPS                                 int64
	Concurrency, Classification                     int
}

// fromThinString is MetricNode.fromThinString: the first seven fields are
// required, the last three optional; a line it cannot read throws, and the
// dashboard skips it. Here that fails the test: no line may be skipped.
func fromThinString(t *testing.T, line string) metricNode {
	t.Helper()
	s := strings.Split(line, "|")
	if len(s) < 7 || len(s) > 10 {
		t.Fatalf("metric line %q has %d fields", line, len(s))
	}
	long := func(i int) int64 {
		v, err := strconv.ParseInt(s[i], 10, 64)
		if err != nil {
			t.Fatalf("metric line %q field %d: %v", line, i, err)
		}
		return v
	}
	n := metricNode{Timestamp: long(0), Resource: s[1], PassQPS: long(2), BlockQPS: long(3), SuccessQPS: long(4),
		ExceptionQPS: long(5), RT: long(6)}
	if len(s) >= 8 {
		n.OccupiedPassQPS = long(7)
	}
	if len(s) >= 9 {
		n.Concurrency = int(long(8))
	}
	if len(s) == 10 {
		n.Classification = int(long(9))
	}
	return n
}

// parseMetric splits an answer as MetricFetcher does (on "\n", blank lines
// skipped).
func parseMetric(t *testing.T, body string) []metricNode {
	t.Helper()
	var out []metricNode
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out = append(out, fromThinString(t, l))
	}
	return out
}

// call runs one call of res lasting rt; fail traces an error.
func call(c *runtime.ManualClock, res *runtime.Resource, rt time.Duration, fail bool) bool {
	e, blocked := res.Entry(context.Background())
	if blocked != nil {
		return false
	}
	c.Advance(rt)
	if fail {
		e.TraceError(fmt.Errorf("failed"))
	}
	e.Exit()
	return true
}

// decodeJSON reads a JSON answer the way fastjson's parseArray into a bean
// would: by property name, unknown ones ignored.
func decodeJSON(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("answer %q: %v", body, err)
	}
}
