package redis

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// BenchmarkPublishToApply measures the time from a writer's MULTI SET +
// PUBLISH to the rules being handed to the applier through datasource.Watch,
// and reports its median and 99th percentile:
//
//	cd datasource/redis && go test -run '^$' -bench PublishToApply -benchtime 200x
func BenchmarkPublishToApply(b *testing.B) {
	addr := benchServer(b)
	applied := make(chan float64, 16)
	src, err := NewSource(Config{Addr: addr, App: "bench", Kinds: []rules.Kind{rules.KindFlow}, Logger: quiet()})
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	c := benchClient(b, addr)
	key := src.Key(rules.KindFlow)
	publish(b, c, key, key+"-channel", flowJSON("1"))
	st.StartWatcher(b, src, datasource.WithLogger(quiet()), datasource.WithApplier(func(s rules.Set) error {
		if len(s.Flow) == 1 {
			applied <- s.Flow[0].Count
		}
		return nil
	}))
	<-applied
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		want := float64(i + 2)
		start := time.Now()
		publish(b, c, key, key+"-channel", flowJSON(strconv.Itoa(i+2)))
		for got := <-applied; got != want; got = <-applied {
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
