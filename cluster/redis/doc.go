// Package redis is a token service for sentinelgen's cluster flow control,
// backed by Redis: every instance that loads a flow rule with ClusterMode
// and the same ClusterConfig.FlowID draws from one budget kept in Redis.
//
//	client := goredis.NewUniversalClient(&goredis.UniversalOptions{
//		Addrs: []string{"redis:6379"},
//		// Without it go-redis ignores the service's 20 ms deadlines and a
//		// stalled Redis holds each round trip for its ReadTimeout (3 s).
//		ContextTimeoutEnabled: true,
//	})
//	svc, err := redis.NewTokenService(client, redis.WithNamespace("orders"))
//	if err != nil { ... }
//	defer svc.Close()
//	runtime.SetTokenService(svc)
//
// # Algorithm
//
// The budget of a flow is Count × WindowIntervalMs/1000 tokens per fixed
// window of WindowIntervalMs (default 1 s) aligned to Redis time (TIME inside
// the script, so instance clocks do not matter), times the number of live
// instances for AvgLocal rules. One Lua script per round trip grants a lease:
// a batch of tokens of the current window, sized as LeaseFraction of the
// window's remaining budget divided by the live instances (at least the
// call's acquire, at most what remains). The instance hands its lease out
// with one atomic decrement per call, with no round trip; when the lease
// falls to a quarter of its last grant a refill runs in the background. A
// lease expires when its Redis window ends (a timer set from the moment the
// request was sent, so never later than the window's end plus the timer's
// lateness); its unused tokens are not returned, they lapse with the window.
// A call that finds the lease empty reads the clock itself, so a late timer
// never lets the old window's spent budget block calls of the next one.
//
// Error bound. Redis never grants more than the window's budget, so no
// window admits more than the budget, except for tokens taken in the timer's
// lateness after a window ends (sub-millisecond on an idle host). Admission
// can fall short of the budget by the tokens stranded in leases of
// instances whose traffic stops before their lease is used: each instance
// holds at most its lease remainder (≤ a quarter of a grant) plus one new
// grant, each grant ≤ LeaseFraction × budget / live, so the shortfall is at
// most about 1.25 × LeaseFraction × budget, 2.5% with the default 0.02. With
// traffic above the budget on every instance, leases are spent before the
// window ends and the shortfall is zero; the tests measure both cases.
//
// A fixed window admits its budget however it is spread: up to twice the
// budget can pass in a one-second span that straddles two windows, as with
// any fixed-window limiter.
//
// # Failure
//
// A call waits for Redis only when its lease is empty, and at most the
// Timeout (default 20 ms); when Redis errs or does not answer in time the
// call gets TokenFail and the runtime applies the rule locally (with
// FallbackToLocalWhenFail) or passes it. The first failure marks Redis down:
// from then on calls that need Redis get TokenFail at once, with no wait,
// while a background probe pings Redis every ProbeInterval; the first answer
// marks it up and calls go back to cluster mode. Each transition is logged
// once (Warn down, Info up) and counted in Stats. Tokens of a lease granted
// before the failure are still used until their window ends.
//
// # Liveness
//
// Each instance keeps an entry in a sorted set per flow, scored by the Redis
// time it expires; the acquire script and a heartbeat every
// HeartbeatInterval refresh it, and entries older than HeartbeatTTL are
// dropped. Close removes the instance's entries at once.
//
// # Bounds
//
// No path waits on the client longer than its bound, whatever the client's
// options: a call waits at most Timeout, and so do refills, heartbeats and
// probes; Close returns within WithCloseTimeout (default 100 ms). go-redis
// honours a context's deadline only with ContextTimeoutEnabled; without it
// the service still stops waiting at the bound, but the abandoned round trip
// holds a connection until the client's ReadTimeout, so set the option.
package redis
