package load

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/examples/orders"
)

// inventory is the simulated stock service: fast and mostly healthy, slow
// during the configured slow phase, failing a fixed fraction of calls.
type inventory struct {
	tl    timeline
	start time.Duration
	cfg   *Config

	mu     sync.Mutex // guards rng and lastID: real runs call concurrently
	rng    *rand.Rand
	lastID uint64
}

func newInventory(tl timeline, start time.Duration, cfg *Config) *inventory {
	return &inventory{
		tl:    tl,
		start: start,
		cfg:   cfg,
		rng:   rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5eed)),
	}
}

// Reserve waits for the current latency, then succeeds or fails.
func (inv *inventory) Reserve(ctx context.Context, sku string, qty int) (string, error) {
	latency, fail := inv.draw()
	if err := inv.tl.Sleep(ctx, latency); err != nil {
		return "", err
	}
	if fail {
		return "", orders.ErrInventoryUnavailable
	}
	inv.mu.Lock()
	inv.lastID++
	id := inv.lastID
	inv.mu.Unlock()
	return "rsv-" + strconv.FormatUint(id, 10), nil
}

// Available behaves like Reserve and reports a fixed shelf; the load driver
// does not query stock, but the type must satisfy orders.Inventory.
func (inv *inventory) Available(ctx context.Context, sku string) (int, error) {
	latency, fail := inv.draw()
	if err := inv.tl.Sleep(ctx, latency); err != nil {
		return 0, err
	}
	if fail {
		return 0, orders.ErrInventoryUnavailable
	}
	return 1000, nil
}

// draw decides one call's latency and whether it fails. In the slow phase
// every call takes SlowLatency; otherwise latency varies around FastLatency
// (between half and one and a half times it).
func (inv *inventory) draw() (time.Duration, bool) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	fail := inv.rng.Float64() < inv.cfg.FailRate
	if inv.cfg.slowAt(inv.tl.Now() - inv.start) {
		return inv.cfg.SlowLatency, fail
	}
	jitter := 0.5 + inv.rng.Float64()
	return time.Duration(float64(inv.cfg.FastLatency) * jitter), fail
}
