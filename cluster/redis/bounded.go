package redis

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// errStillWaiting is what a bounded call answers when the previous call of
// the same path has not returned yet: Redis has not answered that one, so
// a second one would not be answered either, and each would hold a pooled
// connection.
var errStillWaiting = errors.New("the previous call to Redis has not returned yet")

// errClosed is what a bounded call answers when Close stops the wait.
var errClosed = errors.New("token service closed")

// boundedCall runs one kind of client call (a refill, the probe's PING, a
// heartbeat, the deregistering) so that the caller waits at most a bound,
// whatever the client does with the context.
//
// go-redis honours a context's deadline only with ContextTimeoutEnabled;
// without it a call against a stalled server (stopped process, a peer that
// accepts and never answers) lasts the client's ReadTimeout, its retries and
// its DialTimeout: seconds. So the call runs on its own goroutine with the
// deadline in its context (which a client that honours it stops at), and
// the caller stops waiting when the bound passes. A call still running then
// ends when the client's own timeouts fire or the client is closed; until
// it does, the next call of the same path is not started (errStillWaiting),
// so a stalled server costs at most one goroutine and one connection per
// path.
type boundedCall struct {
	running atomic.Bool
}

// do runs call with a context that expires after d and waits for it at
// most d, or until stop closes (nil: no stop). It returns call's error,
// errTimeout when d passed first, errClosed when stop closed first, or
// errStillWaiting.
func (b *boundedCall) do(d time.Duration, stop <-chan struct{}, call func(context.Context) error) error {
	if !b.running.CompareAndSwap(false, true) {
		return errStillWaiting
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	done := make(chan error, 1) // buffered: an abandoned call never blocks on the send
	go func() {
		err := call(ctx)
		b.running.Store(false)
		done <- err // before cancel, so a caller woken by cancel finds the answer
		cancel()
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		// The call may have finished at the deadline: prefer its answer.
		select {
		case err := <-done:
			return err
		default:
			return errTimeout
		}
	case <-stop:
		return errClosed
	}
}
