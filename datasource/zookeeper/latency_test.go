package zookeeper

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// BenchmarkChangeToApply measures how long a change to a node takes to be
// applied by a running Watch: one setData by another client, then the wait
// until the Watcher's applier has the new set. It reports the median and
// the 99th percentile besides the mean:
//
//	cd datasource/zookeeper && go test -run '^$' -bench ChangeToApply -benchtime 200x
func BenchmarkChangeToApply(b *testing.B) {
	if zkServer == nil {
		b.Skipf("no ZooKeeper server (%s)", noServer)
	}
	addr := zkServer.Addr
	c := client(b, addr)
	path := DefaultPath("", "bench-change-to-apply", rules.KindFlow)
	put(b, c, path, flowJSON("0"))
	applied := make(chan rules.Set, 1)
	src, err := NewSource(Config{Servers: []string{addr}, App: "bench-change-to-apply", Kinds: []rules.Kind{rules.KindFlow}, Logger: testLogger(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(src.Close) // after the Watch stops: cleanups run last first
	st.StartWatcher(b, src, datasource.WithLogger(testLogger(b)), datasource.WithApplier(func(s rules.Set) error {
		select {
		case applied <- s:
		default:
			<-applied
			applied <- s
		}
		return nil
	}))
	<-applied
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 1; i <= b.N; i++ {
		want := float64(i)
		start := time.Now()
		if _, err := c.Set(path, []byte(flowJSON(strconv.Itoa(i))), -1); err != nil {
			b.Fatal(err)
		}
		for s := range applied {
			if len(s.Flow) == 1 && s.Flow[0].Count == want {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
