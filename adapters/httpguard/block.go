package httpguard

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// BlockHandler answers a request that a rule refused. be is the runtime's
// shared, immutable *BlockError: read it, never modify it.
type BlockHandler func(w http.ResponseWriter, r *http.Request, be *runtime.BlockError)

// Status is the HTTP status DefaultBlockHandler answers a block with: 503
// Service Unavailable for an open circuit breaker (a dependency is down,
// nothing the caller did), 429 Too Many Requests for every other block
// (flow, hot-parameter, system, authority), as Sentinel's web adapters
// answer all blocks.
func Status(be *runtime.BlockError) int {
	if be != nil && be.Type() == runtime.BlockTypeDegrade {
		return http.StatusServiceUnavailable
	}
	return http.StatusTooManyRequests
}

// blockBodies holds the response bodies by block type, built once so the
// block path writes a constant.
var blockBodies = func() map[runtime.BlockType]string {
	m := map[runtime.BlockType]string{}
	for t := runtime.BlockTypeFlow; t <= runtime.BlockTypeAuthority; t++ {
		m[t] = "request refused by a sentinel " + t.String() + " rule\n"
	}
	return m
}()

// RetryAfter is how long a client refused with be should wait before trying
// again, or 0 when that is not known. It is known for a circuit breaker
// that is OPEN (until TimeWindowSec has passed since it opened) and for a
// flow block of a resource whose flow rules all count QPS (within the
// one-second window). A hot-parameter, system, concurrency or authority
// block has no known wait. Waits are followed from the first New.
func RetryAfter(be *runtime.BlockError) time.Duration { return rulewatch.RetryAfter(be) }

// Header values of the block response, shared by every blocked request so
// the block path does not allocate them: each slice has len == cap, so a
// later Header().Add copies instead of writing into the shared array.
var (
	textPlain = []string{"text/plain; charset=utf-8"}
	noSniff   = []string{"nosniff"}
	// secondsText holds the Retry-After values of waits up to a minute.
	secondsText = func() [][]string {
		s := make([][]string, 61)
		for i := range s {
			s[i] = []string{strconv.Itoa(i)}
		}
		return s
	}()
)

// DefaultBlockHandler answers with Status(be), a Retry-After header when
// RetryAfter knows the wait, and a one-line text body naming the kind of
// rule (not the rule or the resource, which are the server's business).
func DefaultBlockHandler(w http.ResponseWriter, r *http.Request, be *runtime.BlockError) {
	h := w.Header()
	if d := RetryAfter(be); d > 0 {
		h["Retry-After"] = retryAfterValue(d)
	}
	h["Content-Type"] = textPlain
	h["X-Content-Type-Options"] = noSniff
	w.WriteHeader(Status(be))
	body, ok := blockBodies[be.Type()]
	if !ok {
		body = "request refused by a sentinel rule\n"
	}
	_, _ = io.WriteString(w, body)
}

// retryAfterValue is d in whole seconds, rounded up (Retry-After has no
// finer unit; rounding down could say 0).
func retryAfterValue(d time.Duration) []string {
	s := int64((d + time.Second - 1) / time.Second)
	if s < int64(len(secondsText)) {
		return secondsText[s]
	}
	return []string{strconv.FormatInt(s, 10)}
}

// ErrPanic is the error traced for a handler that panicked.
var ErrPanic = errors.New("httpguard: handler panicked")

// errStatus is the error traced for a response status WithErrorStatus
// counts as failed.
var errStatus = errors.New("httpguard: error status")
