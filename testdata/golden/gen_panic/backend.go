// Package panics shows what a guarded call that panics does: the panic is
// traced as an error, so error-based circuit breakers see a panicking
// dependency, and it goes on to the caller unchanged (never to the
// fallback). With ignore= or trace=, a panic is judged as a returned error
// would be.
package panics

import (
	"context"
	"errors"
	goruntime "runtime"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Errors a backend call may panic with.
var (
	// ErrAbort is panicked on purpose to abandon a call (as net/http's
	// ErrAbortHandler is): an answer, not a failure of the backend.
	ErrAbort = errors.New("abort")
	// ErrTimeout is the only failure Timed counts.
	ErrTimeout = errors.New("timeout")
)

// Backend's methods panic with Panic when it is set, and call runtime.Goexit
// when Goexit is set; otherwise they answer.
type Backend struct {
	Err       error // returned by Fetch when set
	Panic     any
	Goexit    bool
	Calls     int
	Fallbacks int
}

func (b *Backend) act() {
	b.Calls++
	if b.Goexit {
		goruntime.Goexit()
	}
	if b.Panic != nil {
		panic(b.Panic)
	}
}

// Fetch has a fallback, which answers blocks and returned errors, never a
// panic.
//
//sentinel:resource name=panics.fetch fallback=fetchFallback
func (b *Backend) Fetch(ctx context.Context, key string) (string, error) {
	b.act()
	if b.Err != nil {
		return "", b.Err
	}
	return key, nil
}

func (b *Backend) fetchFallback(ctx context.Context, key string, err error) (string, error) {
	b.Fallbacks++
	return "fallback", err
}

// Abortable does not count ErrAbort, returned or panicked.
//
//sentinel:resource name=panics.abortable ignore=ErrAbort
func (b *Backend) Abortable(ctx context.Context) error {
	b.act()
	return nil
}

// Timed counts only timeouts, returned or panicked.
//
//sentinel:resource name=panics.timed trace=ErrTimeout
func (b *Backend) Timed(ctx context.Context) error {
	b.act()
	return nil
}

// Size has no error result: a panic is the only error its breakers can see.
//
//sentinel:resource name=panics.size blockHandler=sizeBlocked
func (b *Backend) Size(ctx context.Context) int {
	b.act()
	return 42
}

func (b *Backend) sizeBlocked(ctx context.Context, blockErr *runtime.BlockError) int { return -1 }
