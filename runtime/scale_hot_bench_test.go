package runtime

import (
	"context"
	goruntime "runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// hotChunk is how many passes hotPasses times at once: few enough that
// many chunks run between two preemptions on a busy machine, so that the
// fastest and the median chunk show the pass path rather than the
// machine's other jobs.
const hotChunk = 2000

// hotTimes is what one phase of BenchmarkScaleHotResource measured: the
// fastest and the median chunk's time per pass, in nanoseconds.
type hotTimes struct{ min, med, lagging float64 }

// hotPasses times n passes of r (Entry into a variable in place and Exit,
// as generated wrappers call them) in chunks of hotChunk.
func hotPasses(b *testing.B, r *Resource, n int) hotTimes {
	ctx := context.Background()
	times := make([]float64, max(n/hotChunk, 1))
	lagging := 0
	for c := range times {
		start := time.Now()
		for range hotChunk {
			var e Entry
			if be := r.EntryTo(e.InPlace(), ctx); be != nil {
				b.Fatal(be)
			}
			e.Exit()
		}
		times[c] = float64(time.Since(start).Nanoseconds()) / hotChunk
		if systemClock.Lagging() {
			lagging++
		}
	}
	slices.Sort(times)
	return hotTimes{min: times[0], med: times[len(times)/2], lagging: float64(lagging) / float64(len(times))}
}

// settleClock runs passes of r until the runtime's clock reads its cache
// again, for at most settleLimit, and returns how long that took. Any
// burst of allocation, a load of 100k rules or the building of their
// lists, can keep the clock's ticker from running (on two processors the
// garbage collector's worker and the allocating goroutine hold both) and
// turn the clock lagging: every read is then a real one, and the pass
// path pays two of them, until the ticker has come on time long enough
// (see package coarseclock). Timing the pass before that measures the
// clock's recovery, not what the other resources cost the hot one.
func settleClock(b *testing.B, r *Resource) time.Duration {
	start := time.Now()
	for systemClock.Lagging() && time.Since(start) < settleLimit {
		hotPasses(b, r, hotChunk)
	}
	return time.Since(start)
}

// settleLimit bounds settleClock: a clock lagging longer is reported
// (alone-lagging, loaded-lagging), not waited for.
const settleLimit = time.Second

// BenchmarkScaleHotResource times the pass path of one resource with a QPS
// flow rule and a breaker alone (the only resource with rules), and again,
// in the same process, after 100k other resources with the same rules were
// loaded, round after round. b.N is the passes each phase times, in
// chunks of hotChunk. Per phase it reports the median chunk's time per
// pass (alone-ns, loaded-ns) and the fastest chunk's (alone-min-ns,
// loaded-min-ns), each the median over the rounds, and the ratios
// loaded/alone of both (hot-x-alone, hot-x-alone-min: the median of the
// rounds' ratios), the figure the scale goal bounds. On a loaded machine
// read the fastest chunks. Before each phase it lets the clock recover
// from the allocation before it (settleClock), and reports the longest
// wait (settle-ms) and the share of chunks timed while the clock was
// lagging all the same (alone-lagging, loaded-lagging). Run it with a
// fixed count of passes:
//
//	go test ./runtime -run '^$' -bench ScaleHotResource -benchtime 1000000x -count 3
func BenchmarkScaleHotResource(b *testing.B) {
	const rounds = 5
	name := "hot-" + strconv.FormatInt(resourceSeq.Add(1), 10)
	hot := benchResource(b, name, 1e12)
	hotFlow := FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1e12}
	hotDegrade := DegradeRule{Resource: name, Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}
	hotOnly := Rules{Flow: []FlowRule{hotFlow}, Degrade: []DegradeRule{hotDegrade}}
	hotPasses(b, hot, b.N) // warm: the first pass claims the processor's stripes
	var alone, loaded, ratio, aloneMin, loadedMin, ratioMin []float64
	var lagA, lagL float64
	var settle time.Duration
	b.ResetTimer()
	for range rounds {
		goruntime.GC()
		settle = max(settle, settleClock(b, hot))
		a := hotPasses(b, hot, b.N)

		b.StopTimer()
		names := scaleNames("hotset", scaleN)
		flow, degrade := scaleFlowRules(names), scaleDegradeRules(names)
		if err := LoadRules(Rules{Flow: append(flow, hotFlow), Degrade: append(degrade, hotDegrade)}); err != nil {
			b.Fatal(err)
		}
		goruntime.GC()
		settle = max(settle, settleClock(b, hot))
		b.StartTimer()
		l := hotPasses(b, hot, b.N)

		b.StopTimer()
		if err := LoadRules(hotOnly); err != nil {
			b.Fatal(err)
		}
		forgetResources(names)
		b.StartTimer()
		alone, loaded, ratio = append(alone, a.med), append(loaded, l.med), append(ratio, l.med/a.med)
		aloneMin, loadedMin, ratioMin = append(aloneMin, a.min), append(loadedMin, l.min), append(ratioMin, l.min/a.min)
		lagA, lagL = lagA+a.lagging/rounds, lagL+l.lagging/rounds
	}
	b.ReportMetric(median(alone), "alone-ns")
	b.ReportMetric(median(loaded), "loaded-ns")
	b.ReportMetric(median(ratio), "hot-x-alone")
	b.ReportMetric(median(aloneMin), "alone-min-ns")
	b.ReportMetric(median(loadedMin), "loaded-min-ns")
	b.ReportMetric(median(ratioMin), "hot-x-alone-min")
	b.ReportMetric(lagA, "alone-lagging")
	b.ReportMetric(lagL, "loaded-lagging")
	b.ReportMetric(float64(settle.Milliseconds()), "settle-ms")
}

// median is the middle of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
