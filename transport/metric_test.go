package transport

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func ms(v int64) string { return strconv.FormatInt(v, 10) }

func TestMetricLinesAsMetricNode(t *testing.T) {
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name()+"/Order|Create", runtime.WithResourceType(runtime.ResourceTypeWeb))
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 4}}); err != nil {
		t.Fatal(err)
	}
	// Second 0: 4 passes (one failing, RTs 10+20+30+40 ms) and 2 blocks.
	f.at(100 * time.Millisecond)
	for i := range 6 {
		call(f.clock, res, time.Duration(10*(i+1))*time.Millisecond, i == 1)
	}
	f.at(2100 * time.Millisecond) // second 1 quiet, both read
	sec0 := epochMs + clockStart.Milliseconds()
	code, body := f.get("metric", url.Values{"startTime": {ms(sec0)}, "endTime": {ms(sec0 + 1000)}, "refetch": {"false"}})
	if code != http.StatusOK {
		t.Fatalf("metric: %d %s", code, body)
	}
	nodes := parseMetric(t, body)
	want := metricNode{Timestamp: sec0, Resource: t.Name() + "/Order_Create", PassQPS: 4, BlockQPS: 2, SuccessQPS: 4,
		ExceptionQPS: 1, RT: 25, Classification: int(runtime.ResourceTypeWeb)}
	var mine []metricNode
	for _, n := range nodes {
		if n.Resource == want.Resource {
			mine = append(mine, n)
		}
	}
	if len(mine) != 1 || mine[0] != want {
		t.Fatalf("lines %+v, want [%+v] (the quiet second 1 left out)", mine, want)
	}
	// Both ends inclusive: a window [sec0, sec0] still has it; one starting
	// a millisecond later has not.
	_, body = f.get("metric", url.Values{"startTime": {ms(sec0)}, "endTime": {ms(sec0)}, "identity": {res.Name()}})
	if got := parseMetric(t, body); len(got) != 1 {
		t.Errorf("window [sec0, sec0] = %v", got)
	}
	_, body = f.get("metric", url.Values{"startTime": {ms(sec0 + 1)}, "endTime": {ms(sec0 + 5000)}, "identity": {res.Name()}})
	if got := parseMetric(t, body); len(got) != 0 {
		t.Errorf("window after sec0 = %v", got)
	}
	// No startTime: an empty success, as Java answers.
	if code, body := f.get("metric", nil); code != 200 || body != "" {
		t.Errorf("metric without startTime = %d %q", code, body)
	}
	if code, _ := f.get("metric", url.Values{"startTime": {"x"}}); code != http.StatusBadRequest {
		t.Errorf("bad startTime answered %d", code)
	}
}

// The dashboard's MetricFetcher, replayed over a manual timeline: every
// second it asks for [max(now-15 s, lastEnd+1 s), +6 s] truncated to the
// second, and skips while the window's end is within 2 s of now. Every
// second of traffic must arrive exactly once, whole.
func TestMetricFetcherWindowsSeeEverySecondOnce(t *testing.T) {
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name())
	perSecond := func(k int) int { return 1 + k%5 }
	var lastEnd int64 = -1
	got := map[int64]int64{}
	seen := map[int64]int{}
	const seconds = 40
	for k := range seconds + 12 {
		// Traffic in the first half of second k.
		f.at(time.Duration(k)*time.Second + 100*time.Millisecond)
		if k < seconds {
			for range perSecond(k) {
				call(f.clock, res, time.Millisecond, false)
			}
		}
		f.at(time.Duration(k)*time.Second + 900*time.Millisecond)
		now := f.wallMs()
		start := now - 15_000
		if lastEnd >= 0 {
			start = max(start, lastEnd+1000)
		}
		start = start / 1000 * 1000
		end := start + 6000
		if end > now-2000 {
			continue
		}
		_, body := f.get("metric", url.Values{"startTime": {ms(start)}, "endTime": {ms(end)}, "refetch": {"false"}})
		for _, n := range parseMetric(t, body) {
			if n.Resource != res.Name() {
				continue
			}
			if n.Timestamp < start || n.Timestamp > end || n.Timestamp%1000 != 0 {
				t.Errorf("line for %d outside window [%d, %d] or not on a second", n.Timestamp, start, end)
			}
			got[n.Timestamp] += n.PassQPS
			seen[n.Timestamp]++
		}
		lastEnd = end
	}
	sec0 := epochMs + clockStart.Milliseconds()
	for k := range seconds {
		ts := sec0 + int64(k)*1000
		if ts > lastEnd {
			break
		}
		if seen[ts] != 1 || got[ts] != int64(perSecond(k)) {
			t.Errorf("second %d: seen %d times, pass %d, want once with %d", k, seen[ts], got[ts], perSecond(k))
		}
	}
	if lastEnd < sec0+30_000 {
		t.Errorf("the fetcher covered only up to %d", lastEnd)
	}
}

// A second the sampler read only after its bucket was reused is left out:
// the dashboard never fetches a second twice, so a short count would chart
// as a real dip.
func TestMetricLeavesOutPartialSeconds(t *testing.T) {
	f := newFixture(t, Config{})
	res := runtime.NewResource(t.Name())
	f.at(100 * time.Millisecond)
	for range 3 {
		call(f.clock, res, 0, false)
	}
	f.clock.Set(clockStart + 700*time.Millisecond) // no poll: the sampler is starved
	call(f.clock, res, 0, false)
	f.clock.Set(clockStart + 1200*time.Millisecond) // reuses second 0's first bucket
	call(f.clock, res, 0, false)
	f.at(2100 * time.Millisecond)
	sec0 := epochMs + clockStart.Milliseconds()
	if got := f.sampler.Seconds(res.Name(), sec0, sec0); len(got) != 1 || !got[0].Partial {
		t.Fatalf("second 0 = %+v, want it marked partial", got)
	}
	_, body := f.get("metric", url.Values{"startTime": {ms(sec0)}, "endTime": {ms(sec0 + 1000)}, "identity": {res.Name()}})
	got := parseMetric(t, body)
	if len(got) != 1 || got[0].Timestamp != sec0+1000 || got[0].PassQPS != 1 {
		t.Errorf("metric = %+v, want only the whole second 1 with its 1 pass", got)
	}
}
