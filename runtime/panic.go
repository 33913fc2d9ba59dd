package runtime

import "errors"

// ErrPanicked is the error the generated wrappers trace, with
// Entry.TraceError, for an admitted call that did not return: one that
// panicked (with a value that is not an error, or without the wrapper
// looking at the value) or called runtime.Goexit. It makes such a call count
// as an error for the statistics and the error-based circuit breakers, as an
// exception does in Sentinel's @SentinelResource. The panic itself goes on to
// the caller unchanged; ErrPanicked is never returned by a wrapper.
var ErrPanicked = errors.New("sentinel: the guarded call panicked")
