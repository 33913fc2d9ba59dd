package redis

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// With AvgLocal, Count is per live instance: three live instances with Count
// 100 share 300 per second. When one crashes (its client closes, so it
// neither calls nor heartbeats nor deregisters), its live entry expires
// after the heartbeat TTL and the two left share 200.
func TestAvgLocalBudgetFollowsLiveInstances(t *testing.T) {
	srv := redistest.Start(t)
	const ttl = 500 * time.Millisecond
	rule := clusterRule(3, 100, runtime.AvgLocal)

	var (
		wg      sync.WaitGroup
		tallies [3]*tally
		stops   [3]context.CancelFunc
		ins     [3]*instance
	)
	for i := range ins {
		ins[i] = newInstance(t, srv, WithHeartbeat(100*time.Millisecond, ttl))
		// Every instance is live before traffic starts.
		if _, err := ins[i].svc.runHeartbeat(context.Background(), ins[i].svc.flow(rule.ClusterConfig.FlowID)); err != nil {
			t.Fatal(err)
		}
	}
	waitForSecondStart()
	start := time.Now()
	for i := range ins {
		tallies[i] = newTally()
		var ctx context.Context
		ctx, stops[i] = context.WithCancel(context.Background())
		wg.Go(func() { offer(ctx, ins[i].svc, rule, 200, tallies[i]) })
	}
	defer func() {
		for _, stop := range stops {
			stop()
		}
		wg.Wait()
	}()

	time.Sleep(3100 * time.Millisecond) // two full seconds with three live
	crash := time.Now()
	stops[2]()
	_ = ins[2].client.Close()
	time.Sleep(ttl + 2500*time.Millisecond)
	end := time.Now()
	stops[0]()
	stops[1]()
	wg.Wait()

	for _, s := range fullSeconds(start, crash) {
		got := sumOK(s, tallies[:]...)
		t.Logf("3 live, second %d: %d passed", s, got)
		if !within(got, 300, 0.05) {
			t.Errorf("3 live, second %d: %d passed, want 300 ± 5%%", s, got)
		}
	}
	after := fullSeconds(crash.Add(ttl), end)
	if len(after) == 0 {
		t.Fatal("no full second measured after the TTL")
	}
	for _, s := range after {
		got := sumOK(s, tallies[:2]...)
		t.Logf("2 live, second %d: %d passed", s, got)
		if !within(got, 200, 0.05) {
			t.Errorf("2 live, second %d: %d passed, want 200 ± 5%%", s, got)
		}
	}
}
