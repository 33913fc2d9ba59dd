package redis

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The service works through a Redis Cluster client: each flow's keys share
// the {FlowID} hash tag, so every script stays in one slot (Redis refuses
// CROSSSLOT scripts), and the budget holds as on a single server.
func TestWorksThroughARedisClusterClient(t *testing.T) {
	srv := redistest.StartCluster(t)
	client := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: []string{srv.Addr}})
	t.Cleanup(func() { _ = client.Close() })
	svc, err := NewTokenService(client, WithTimeout(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })

	waitForSecondStart()                 // the calls below stay in one Redis window
	for _, id := range []int64{21, 22} { // two flows: two slots
		if passed := passedOf100(t, svc, clusterRule(id, 40, runtime.Global)); passed != 40 {
			t.Errorf("flow %d: %d of 100 passed, want the budget 40", id, passed)
		}
	}
}

// The service works through a Sentinel-managed (failover) client, which
// finds the master by asking the sentinel.
func TestWorksThroughASentinelClient(t *testing.T) {
	master := redistest.Start(t)
	sentinel := redistest.StartSentinel(t, master)
	client := goredis.NewUniversalClient(&goredis.UniversalOptions{
		MasterName: redistest.SentinelMaster, Addrs: []string{sentinel.Addr}})
	t.Cleanup(func() { _ = client.Close() })
	svc, err := NewTokenService(client, WithTimeout(250*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })

	waitForSecondStart()
	passed := passedOf100(t, svc, clusterRule(23, 40, runtime.Global))
	if passed != 40 {
		t.Errorf("%d of 100 passed, want the budget 40", passed)
	}
	// The budget is in the master the sentinel names.
	direct := goredis.NewClient(&goredis.Options{Addr: master.Addr})
	t.Cleanup(func() { _ = direct.Close() })
	if used, err := direct.HGet(context.Background(), DefaultNamespace+":{23}:window", "used").Int(); err != nil || used != 40 {
		t.Errorf("master's window: used %d, %v; want 40", used, err)
	}
}

// passedOf100 asks svc for 100 single tokens of rule and returns how many it
// granted; any answer other than ok or blocked fails the test.
func passedOf100(t *testing.T, svc *TokenService, rule *runtime.FlowRule) int {
	t.Helper()
	passed := 0
	for range 100 {
		switch st := svc.RequestToken(rule, 1, false).Status; st {
		case runtime.TokenOK:
			passed++
		case runtime.TokenBlocked:
		default:
			t.Fatalf("flow %d: status %v; stats %+v", rule.ClusterConfig.FlowID, st, svc.Stats())
		}
	}
	return passed
}
