package redis

import (
	"context"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// acquireScript grants one lease of a flow's budget, atomically, on Redis
// time, so every instance draws from the same exact count however their
// clocks disagree.
//
// The budget lives in fixed windows of windowMs aligned to Redis time (the
// window of a moment is floor(now / windowMs)). KEYS[1], a hash, holds the
// window index and the tokens granted in it; a new window starts at zero.
// KEYS[2], a sorted set, holds the live instances scored by the Redis time
// their heartbeat expires; the caller refreshes its own entry, expired ones
// are dropped, and the number left both scales an AvgLocal budget and
// divides the lease so that instances share what remains.
//
// A lease is a fraction of the remaining budget divided by the live
// instances, at least the call's acquire and at most what remains: early in
// a window leases are large (few round trips), near its end they shrink to
// single tokens (little budget stranded in one instance's lease).
//
// ARGV: count per second, windowMs, "1" for AvgLocal, acquire, lease
// fraction, instance ID, heartbeat TTL in ms.
// Returns {granted, window, ms to window end, remaining after grant, live}.
var acquireScript = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local acquire = tonumber(ARGV[4])
local fraction = tonumber(ARGV[5])
local ttl = tonumber(ARGV[7])

redis.call('ZADD', KEYS[2], now + ttl, ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('PEXPIRE', KEYS[2], ttl * 2)
local live = redis.call('ZCARD', KEYS[2])

local budget = count * windowMs / 1000
if ARGV[3] == '1' then
  budget = budget * live
end
budget = math.floor(budget)

local window = math.floor(now / windowMs)
local toEnd = (window + 1) * windowMs - now
local used = 0
local state = redis.call('HMGET', KEYS[1], 'window', 'used')
if tonumber(state[1]) == window then
  used = tonumber(state[2]) or 0
end
local remaining = budget - used
if remaining < acquire then
  if remaining < 0 then remaining = 0 end
  return {0, window, toEnd, remaining, live}
end

local grant = math.floor(remaining * fraction / live)
if grant < acquire then grant = acquire end
if grant > remaining then grant = remaining end
redis.call('HSET', KEYS[1], 'window', window, 'used', used + grant)
redis.call('PEXPIRE', KEYS[1], windowMs * 2)
return {grant, window, toEnd, remaining - grant, live}
`)

// heartbeatScript refreshes the caller's entry in a live set (KEYS[1]) on
// Redis time and drops expired entries. ARGV: instance ID, TTL in ms.
// Returns the number of live instances.
var heartbeatScript = goredis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ttl * 2)
return redis.call('ZCARD', KEYS[1])
`)

// grant is the decoded answer of acquireScript.
type grant struct {
	tokens    int64 // granted now; 0 when the window's budget is spent
	window    int64 // index of the Redis window the tokens belong to
	toEndMs   int64 // time left in that window, by Redis time
	remaining int64 // budget left in the window after this grant
	live      int64 // live instances
}

// request is what a refill asks the script for, copied from the rule when
// the refill starts (the rule pointer is only valid during RequestToken).
type request struct {
	count    float64
	windowMs int
	avgLocal bool
	acquire  int64
}

func requestFor(rule *runtime.FlowRule, acquire int64) request {
	w := rule.ClusterConfig.WindowIntervalMs
	if w == 0 {
		w = runtime.DefaultStatIntervalMs
	}
	return request{count: rule.Count, windowMs: w, avgLocal: rule.ClusterConfig.ThresholdType == runtime.AvgLocal, acquire: acquire}
}

// runAcquire runs acquireScript for one flow.
func (s *TokenService) runAcquire(ctx context.Context, f *flowState, req request) (grant, error) {
	avg := "0"
	if req.avgLocal {
		avg = "1"
	}
	vals, err := acquireScript.Run(ctx, s.client, f.keys,
		strconv.FormatFloat(req.count, 'g', -1, 64), req.windowMs, avg, req.acquire,
		strconv.FormatFloat(s.cfg.leaseFraction, 'g', -1, 64), s.cfg.instanceID, s.cfg.heartbeatTTL.Milliseconds(),
	).Int64Slice()
	if err != nil {
		return grant{}, err
	}
	if len(vals) != 5 {
		return grant{}, fmt.Errorf("acquire script returned %d values, want 5", len(vals))
	}
	return grant{tokens: vals[0], window: vals[1], toEndMs: vals[2], remaining: vals[3], live: vals[4]}, nil
}

// runHeartbeat refreshes this instance's entry in a flow's live set and
// returns the number of live instances.
func (s *TokenService) runHeartbeat(ctx context.Context, f *flowState) (int64, error) {
	return heartbeatScript.Run(ctx, s.client, f.keys[1:], s.cfg.instanceID, s.cfg.heartbeatTTL.Milliseconds()).Int64()
}
