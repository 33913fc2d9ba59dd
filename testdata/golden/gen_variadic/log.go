// Package variadic guards variadic methods and functions: the wrapper stays
// variadic and forwards xs..., the handlers receive the slice.
package variadic

import (
	"context"
	"errors"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrNoMessages is returned when there is nothing to log.
var ErrNoMessages = errors.New("no messages")

// Logger writes lines.
type Logger struct{ Lines []string }

// Log writes msgs at level and returns how many were written.
//
//sentinel:resource name=variadic.log blockHandler=logBlocked fallback=logFallback
func (l *Logger) Log(ctx context.Context, level string, msgs ...string) (int, error) {
	if len(msgs) == 0 {
		return 0, ErrNoMessages
	}
	l.Lines = append(l.Lines, level+": "+strings.Join(msgs, " "))
	return len(msgs), nil
}

func (l *Logger) logBlocked(ctx context.Context, level string, msgs []string, blockErr *runtime.BlockError) (int, error) {
	return -len(msgs), nil
}

func (l *Logger) logFallback(ctx context.Context, level string, msgs []string, err error) (int, error) {
	return 100 + len(msgs), nil
}

// Sum adds xs.
//
//sentinel:resource name=variadic.sum fallback=sumFallback
func Sum(xs ...int) (int, error) {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total, nil
}

func sumFallback(xs []int, err error) (int, error) {
	return -len(xs), err
}
