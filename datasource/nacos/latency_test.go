package nacos

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// 100 publishes in 10 s: whatever the SDK coalesces on the way, the rules in
// force end equal to the last one.
func TestLastOfABurstOfPublishesWins(t *testing.T) {
	addr := needServer(t)
	id := testApp(t) + "-flow-rules"
	publish(t, addr, id, flowJSON("1"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })
	w, applied := watch(t, newTestSource(t, addr, nil))
	const n = 100
	tick := time.NewTicker(10 * time.Second / n)
	defer tick.Stop()
	start := time.Now()
	for i := 2; i <= n+1; i++ {
		<-tick.C
		publish(t, addr, id, flowJSON(strconv.Itoa(i)))
	}
	last := time.Now()
	waitUntil(t, "the last publish is in force", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{n + 1})
	})
	lag := time.Since(last)
	_, sets := applied.Last()
	t.Logf("%d publishes in %v; the last in force %v after it (%d sets applied)", n, last.Sub(start).Round(time.Millisecond),
		lag.Round(time.Millisecond), sets)
	// And it stays: no older publish arrives after it.
	time.Sleep(time.Second)
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{n + 1}) {
		t.Errorf("flow counts %v a second after the last publish was in force, want [%d]", got, n+1)
	}
}

// pushToApplyRuns is how many publishes TestPushToApplyLatency times.
const pushToApplyRuns = 50

// TestPushToApplyLatency times, publish by publish, how long a change takes
// from Nacos's API answering the publish to the rule being in force in the
// runtime, and logs the median and the 99th percentile. Its only bound is
// waitTimeout per publish; docs/performance.md gives the figures.
func TestPushToApplyLatency(t *testing.T) {
	addr := needServer(t)
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	id := testApp(t) + "-flow-rules"
	doc := func(count int) string {
		return `[{"resource":"nacosLatency","grade":1,"count":` + strconv.Itoa(count) + `}]`
	}
	publish(t, addr, id, doc(1))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })
	st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithLogger(quietLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	lags := make([]time.Duration, 0, pushToApplyRuns)
	for i := 2; i < pushToApplyRuns+2; i++ {
		publish(t, addr, id, doc(i))
		published := time.Now()
		waitUntil(t, "publish "+strconv.Itoa(i)+" is in force", func() bool { return runtimeCount("nacosLatency") == float64(i) })
		lags = append(lags, time.Since(published))
	}
	slices.Sort(lags)
	pct := func(p int) time.Duration { return lags[(len(lags)*p+99)/100-1] }
	t.Logf("publish to in force in the runtime, %d publishes: median %v, p99 %v, min %v, max %v", len(lags),
		pct(50).Round(time.Millisecond), pct(99).Round(time.Millisecond), lags[0].Round(time.Millisecond),
		lags[len(lags)-1].Round(time.Millisecond))
}
