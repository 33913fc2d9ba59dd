package load

import (
	"context"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/sentinelgen/sentinelgen/examples/orders"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Run loads cfg's rules, then offers createOrder cfg.OfferedQPS calls per
// second on the wall clock for cfg.Duration (whole seconds) and returns once
// every call is answered. Cancelling ctx stops the arrivals early; calls in
// flight still finish, and the report holds the seconds that completed.
//
// Rules are process-wide: Run replaces every flow and degrade rule.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.check(); err != nil {
		return Report{}, err
	}
	tl := &realTimeline{}
	// Start on a whole second of the runtime's clock, so that each reported
	// second is exactly one window of the runtime's statistics (its buckets
	// are aligned to that clock) and can be compared with the QPS rule.
	start := wholeSecondAfter(tl.Now())
	if err := tl.Sleep(ctx, start-tl.Now()); err != nil {
		return Report{}, err
	}
	d, err := newDriver(cfg, tl, start)
	if err != nil {
		return Report{}, err
	}
	d.arrive(ctx)
	tl.wait()
	end := tl.Now()
	if ctx.Err() == nil {
		// Every second is over, though the runtime's coarse clock may read
		// a tick behind the timer that ended the last one.
		end = max(end, start+time.Duration(d.seconds)*time.Second)
	}
	return d.finish(end), nil
}

// Simulate runs the same load as Run on simulated time and returns in
// milliseconds. clock must be the runtime's clock (installed by the caller
// with runtime.SetClock before any traffic in the process); Simulate moves it
// forward as simulated time passes. Equal configurations give equal reports.
//
// The runtime's statistics ignore writes older than their newest, so time
// must never go back for a resource: run simulations one after another on
// the same clock (each starts after the previous one ended), start the clock
// no earlier than the real clock's reading if Run came first, and do not call
// Run after a simulation in the same process.
func Simulate(cfg Config, clock *runtime.ManualClock) (Report, error) {
	if err := cfg.check(); err != nil {
		return Report{}, err
	}
	// Start a minute after the clock's current time, on a whole second:
	// whatever a previous run left in the statistics windows has expired.
	start := wholeSecondAfter(clock.Now()) + time.Minute
	tl := newVirtualTimeline(start, clock.Set)
	d, err := newDriver(cfg, tl, start)
	if err != nil {
		return Report{}, err
	}
	tl.run(func() {
		// context.Background: a simulated run is never cancelled.
		d.arrive(context.Background())
	})
	return d.finish(tl.Now()), nil
}

// driver offers the load and records the answers.
type driver struct {
	cfg     Config
	tl      timeline
	start   time.Duration
	seconds int
	inner   *orders.OrderService
	svc     *orders.GuardedOrderService
	tally   *tally
	// resource is createOrder's runtime handle (the one the generated
	// wrapper created), read for its statistics.
	resource *runtime.Resource
	mix      *rand.Rand // request mix; only the arrival loop uses it

	stopWatching func() // ends the breaker listener
}

func newDriver(cfg Config, tl timeline, start time.Duration) (*driver, error) {
	d := &driver{
		cfg:      cfg,
		tl:       tl,
		start:    start,
		seconds:  int(cfg.Duration / time.Second),
		resource: runtime.NewResource(resourceName),
		mix:      rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0xa77)),
	}
	d.inner = orders.NewOrderService(newInventory(tl, start, &d.cfg))
	d.svc = orders.NewGuardedOrderService(d.inner)
	d.tally = newTally(start, d.seconds, breakerClosed, cfg.OnSecond)
	stop, err := installRules(&d.cfg, d.tally.breakerMoved)
	if err != nil {
		return nil, err
	}
	d.stopWatching = stop
	return d, nil
}

// arrive starts one call every 1/OfferedQPS seconds until the run's last
// second ends, without waiting for answers: a real client population does
// not slow down because the service does.
func (d *driver) arrive(ctx context.Context) {
	d.tl.Go(func() { d.sample(ctx) })
	end := time.Duration(d.seconds) * time.Second
	calls := context.WithoutCancel(ctx) // calls in flight finish even when arrivals stop
	for i := 0; ; i++ {
		offset := time.Duration(float64(i) * float64(time.Second) / d.cfg.OfferedQPS)
		if offset >= end {
			break
		}
		if err := d.tl.Sleep(ctx, d.start+offset-d.tl.Now()); err != nil {
			return
		}
		req := d.request(i)
		d.tally.launch()
		d.tl.Go(func() {
			sec := d.tally.enter(d.tl.Now)
			order, err := d.svc.CreateOrder(calls, req)
			d.tally.answer(sec, classify(order, err), d.tl.Now())
		})
		d.tally.tick(d.tl.Now())
	}
	// Sleep to the end of the last second so that it is reported whole.
	if d.tl.Sleep(ctx, d.start+end-d.tl.Now()) == nil {
		d.tally.tick(d.tl.Now())
	}
}

// sample reads the runtime's statistics 1 ms before each second ends, when
// its one-second window covers exactly that second.
func (d *driver) sample(ctx context.Context) {
	for sec := range d.seconds {
		end := d.start + time.Duration(sec+1)*time.Second
		if d.tl.Sleep(ctx, end-time.Millisecond-d.tl.Now()) != nil {
			return
		}
		d.tally.sample(sec, d.resource.Snapshot(), d.tl.Now())
	}
}

// request builds the i-th request: a plausible order, or with probability
// InvalidRate one with a zero quantity.
func (d *driver) request(i int) *orders.CreateOrderRequest {
	req := &orders.CreateOrderRequest{
		CustomerID: "cust-" + strconv.Itoa(i%97),
		SKU:        "sku-" + strconv.Itoa(i%13),
		Quantity:   1 + i%3,
	}
	if d.mix.Float64() < d.cfg.InvalidRate {
		req.Quantity = 0
	}
	return req
}

// finish collects the report once every call is answered.
func (d *driver) finish(now time.Duration) Report {
	d.stopWatching()
	r := d.tally.report(now)
	r.Outcomes = d.inner.Outcomes().Counts()
	return r
}

// wholeSecondAfter returns the first whole second strictly after t.
func wholeSecondAfter(t time.Duration) time.Duration {
	return t.Truncate(time.Second) + time.Second
}
