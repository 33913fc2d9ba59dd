package load

import (
	"errors"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/examples/orders"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// outcome is what one call got back.
type outcome uint8

const (
	outcomePassed outcome = iota
	outcomeBlockedFlow
	outcomeBlockedDegrade
	outcomeFallback
	outcomeInvalid
	outcomeUnexpected
)

// classify reads a guarded CreateOrder's answer the way a client would.
func classify(order *orders.Order, err error) outcome {
	if typ, ok := orders.IsRetryLater(err); ok {
		if typ == runtime.BlockTypeDegrade {
			return outcomeBlockedDegrade
		}
		return outcomeBlockedFlow
	}
	var invalid *orders.ValidationError
	switch {
	case errors.As(err, &invalid):
		return outcomeInvalid
	case err != nil || order == nil:
		return outcomeUnexpected
	case order.Status == orders.StatusConfirmed:
		return outcomePassed
	case order.Status == orders.StatusPending:
		return outcomeFallback
	}
	return outcomeUnexpected
}

// tally counts answers by the second their call entered the service in and
// hands each second to onSecond once it is over and all its calls are
// answered.
//
// A call is counted in two steps: launch, when the driver starts it, and
// enter, on the call's own goroutine just before it calls the service, which
// reads the clock and picks the second. Using the time of entry rather than
// the scheduled time puts each call in the same second as the runtime's
// statistics do, even when a goroutine starts late; launch keeps a second
// from being handed over while a call that may still land in it has not
// picked its second yet.
type tally struct {
	start    time.Duration
	onSecond func(Second)

	mu          sync.Mutex
	seconds     []Second
	launched    int    // calls started that have not picked their second yet
	pending     []int  // calls of each second not answered yet
	sampled     []bool // whether each second's runtime statistics are in
	emitted     int    // seconds handed to onSecond so far
	initial     string
	transitions []transition
}

// transition is a change of the breaker's state.
type transition struct {
	at time.Duration
	to string
}

func newTally(start time.Duration, seconds int, initialState string, onSecond func(Second)) *tally {
	t := &tally{
		start:    start,
		onSecond: onSecond,
		seconds:  make([]Second, seconds),
		pending:  make([]int, seconds),
		sampled:  make([]bool, seconds),
		initial:  initialState,
	}
	for i := range t.seconds {
		t.seconds[i].At = i
	}
	return t
}

// launch records that a call has been started.
func (t *tally) launch() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.launched++
}

// enter records a launched call entering the service now and returns its
// second. The clock is read under the lock: a second is handed over only
// after a read at or past its end, so any read that follows falls into a
// later second. A read that is nonetheless late (the runtime's coarse clock
// can lag across goroutines by a tick) or past the run's end goes to the
// nearest second still open.
func (t *tally) enter(now func() time.Duration) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	at := now()
	sec := min(max(int((at-t.start)/time.Second), t.emitted), len(t.seconds)-1)
	t.launched--
	t.seconds[sec].Offered++
	t.pending[sec]++
	t.emitReady(at) // seconds before sec may have waited for this call only to pick its second
	return sec
}

// answer records the outcome of a call that arrived in second sec.
func (t *tally) answer(sec int, o outcome, now time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &t.seconds[sec]
	switch o {
	case outcomePassed:
		s.Passed++
	case outcomeBlockedFlow:
		s.BlockedFlow++
	case outcomeBlockedDegrade:
		s.BlockedDegrade++
	case outcomeFallback:
		s.Fallback++
	case outcomeInvalid:
		s.Invalid++
	default:
		s.Unexpected++
	}
	t.pending[sec]--
	t.emitReady(now)
}

// breakerMoved records a change of the breaker's state at now.
func (t *tally) breakerMoved(now time.Duration, to string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.transitions = append(t.transitions, transition{at: now, to: to})
}

// sample records the runtime's statistics for second sec, read just before
// the second ended.
func (t *tally) sample(sec int, s runtime.Snapshot, now time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seconds[sec].Runtime = s
	t.sampled[sec] = true
	t.emitReady(now)
}

// tick hands over the seconds that are complete at now.
func (t *tally) tick(now time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emitReady(now)
}

// emitReady hands over, in order, each second that has ended, has its
// runtime statistics and has no call left unanswered. It runs under mu, so
// seconds go out one at a time.
func (t *tally) emitReady(now time.Duration) {
	for t.emitted < len(t.seconds) && t.launched == 0 && t.sampled[t.emitted] && t.pending[t.emitted] == 0 &&
		now >= t.secondStart(t.emitted+1) {
		s := &t.seconds[t.emitted]
		s.Breaker = t.statesDuring(t.emitted)
		t.emitted++
		if t.onSecond != nil {
			t.onSecond(*s)
		}
	}
}

// statesDuring lists the breaker's state when second sec began and then
// every state it moved to before the second ended.
func (t *tally) statesDuring(sec int) []string {
	from, to := t.secondStart(sec), t.secondStart(sec+1)
	states := []string{t.initial}
	for _, tr := range t.transitions {
		switch {
		case tr.at < from:
			states[0] = tr.to
		case tr.at < to:
			states = append(states, tr.to)
		}
	}
	return states
}

func (t *tally) secondStart(sec int) time.Duration {
	return t.start + time.Duration(sec)*time.Second
}

// report returns the seconds that are complete at end and their totals.
// After a whole run that is every second; after a cancelled one, those
// before the cancellation.
func (t *tally) report(end time.Duration) Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emitReady(end)
	r := Report{Seconds: append([]Second(nil), t.seconds[:t.emitted]...)}
	r.Total.At = -1
	for _, s := range r.Seconds {
		r.Total.Offered += s.Offered
		r.Total.Passed += s.Passed
		r.Total.BlockedFlow += s.BlockedFlow
		r.Total.BlockedDegrade += s.BlockedDegrade
		r.Total.Fallback += s.Fallback
		r.Total.Invalid += s.Invalid
		r.Total.Unexpected += s.Unexpected
		for _, st := range s.Breaker {
			if n := len(r.Total.Breaker); n == 0 || r.Total.Breaker[n-1] != st {
				r.Total.Breaker = append(r.Total.Breaker, st)
			}
		}
	}
	return r
}
