package bench

import "time"

// The configuration every library is given, in one place so that the
// equivalence between peers can be read off a single screen. Each peer maps
// these numbers onto its own rule types.
const (
	// passResource carries a flow limit so high that it never blocks and a
	// breaker that never trips: every call takes the full pass path, flow check
	// plus breaker check on entry and statistics plus breaker bookkeeping on exit.
	passResource = "bench-pass"
	// blockResource carries a limit that admits nothing, so every call is
	// rejected by the flow check, which runs before the breaker.
	blockResource = "bench-block"

	// passQPS is far above any rate a benchmark can reach (1e12 calls/s).
	passQPS = 1e12
	// blockQPS admits no call at all.
	blockQPS = 0

	// slowCallRTMs is the response time (ms) above which a call counts as
	// slow. A minute is never reached by an empty call, so breakers stay closed.
	slowCallRTMs = 60_000
	// slowRatioThreshold is the share of slow (or failed) calls that would
	// open a breaker.
	slowRatioThreshold = 0.5
	// breakerMinRequests is the smallest number of calls in a window before a
	// breaker may open (Sentinel's MinRequestAmount).
	breakerMinRequests = 5
	// breakerWindowMs is the breaker's statistics window (Sentinel's
	// StatIntervalMs).
	breakerWindowMs = 1000
	// breakerOpenForSec is how long an open breaker rejects calls before
	// probing (Sentinel's TimeWindow, sentinel-golang's RetryTimeoutMs).
	breakerOpenForSec = 10

	// The same numbers as durations, for the libraries that take them.
	breakerWindow  = breakerWindowMs * time.Millisecond
	breakerOpenFor = breakerOpenForSec * time.Second

	// exhaustedPeriod is the refill period of the limiter that stands for
	// "limit 0" in failsafe-go, which cannot be built with zero permits: one
	// permit a day, spent before the benchmark starts.
	exhaustedPeriod = 24 * time.Hour
)

// outcome is what happened to one guarded call, in terms every library can
// express.
type outcome uint8

const (
	// passed: the call was admitted, ran, and its completion was recorded.
	passed outcome = iota + 1
	// blockedByFlow: the rate or QPS check refused the call.
	blockedByFlow
	// blockedOther: refused by something else (a breaker) or failed
	// unexpectedly; never wanted by any benchmark.
	blockedOther
)

// String names the outcome for failure messages.
func (o outcome) String() string {
	switch o {
	case passed:
		return "passed"
	case blockedByFlow:
		return "blocked by flow"
	case blockedOther:
		return "blocked by something else"
	}
	return "unknown outcome"
}
