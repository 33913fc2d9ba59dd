// Package benchcase measures what a generated guard costs: the same
// runtime calls written by hand are the baseline (see the benchmarks); and
// what a guard's retries cost the dependency it calls (Flaky).
package benchcase

//go:generate go run github.com/sentinelgen/sentinelgen/cmd/sentinelgen

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrNegative is returned for a negative id.
var ErrNegative = errors.New("negative id")

// Service is a trivial service, so that the guard dominates the cost.
// Failing, when set, decides whether a call of Flaky fails; Downstream
// counts Flaky's calls.
type Service struct {
	Failing    func() bool
	Downstream int
}

// ErrUnavailable is Flaky's failure.
var ErrUnavailable = errors.New("unavailable")

// Flaky is a call to a dependency that fails when Failing says so, retried
// within the default budget.
//
//sentinel:resource name=benchcase.flaky retries=2 retryBackoff=0s fallback=flakyFallback
func (s *Service) Flaky(ctx context.Context, id int) (int, error) {
	s.Downstream++
	if s.Failing != nil && s.Failing() {
		return 0, ErrUnavailable
	}
	return id, nil
}

func (s *Service) flakyFallback(ctx context.Context, id int, err error) (int, error) {
	return -1, nil
}

// Get is guarded by generated code.
//
//sentinel:resource name=benchcase.generated fallback=getFallback
func (s *Service) Get(ctx context.Context, id int) (int, error) {
	return s.get(ctx, id)
}

func (s *Service) get(ctx context.Context, id int) (int, error) {
	if id < 0 {
		return 0, ErrNegative
	}
	return id * 2, nil
}

func (s *Service) getFallback(ctx context.Context, id int, err error) (int, error) {
	return -1, nil
}

// handWritten is the resource of HandWrittenGet.
var handWritten = runtime.NewResource("benchcase.handwritten")

// HandWrittenGet makes the runtime calls a careful developer would write
// for Get, without a generator: the baseline of the benchmarks.
func (s *Service) HandWrittenGet(ctx context.Context, id int) (int, error) {
	e, blockErr := handWritten.Entry(ctx)
	if blockErr != nil {
		return s.getFallback(ctx, id, blockErr)
	}
	defer e.Exit()
	v, err := s.Get(ctx, id)
	if err != nil {
		e.TraceError(err)
		return s.getFallback(ctx, id, err)
	}
	return v, nil
}
