// Package collide uses, as parameter and package-level names, every name the
// generator would like for itself; the generated code must pick others.
package collide

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Package-level names that generated helpers and locals would otherwise take.
var (
	resServiceDo   = "taken"
	traceServiceDo = "taken"
	e              = "taken"
	g              = "taken"
	inner          = "taken"
)

var errIgnored = errors.New("ignored")

// Service has methods whose parameters shadow the generated code's imports
// and locals.
type Service struct{ Fail error }

// Do has parameters named after the imports and the wrapper's locals.
//
//sentinel:resource name=collide.do blockHandler=doBlocked fallback=doFallback ignore=errIgnored
func (s *Service) Do(context context.Context, e int, err string, ctx []byte, res bool, runtime float64, blockErr rune, errors error) (string, error) {
	if s.Fail != nil {
		return "", s.Fail
	}
	return fmt.Sprintln(e, err, string(ctx), res, runtime, string(blockErr), errors), nil
}

func (s *Service) doBlocked(context context.Context, e int, err string, ctx []byte, res bool, runtime float64, blockErr rune, errors error, be *runtime.BlockError) (string, error) {
	return fmt.Sprintln("blocked", e, err, string(ctx), res, runtime, string(blockErr), errors), nil
}

func (s *Service) doFallback(context context.Context, e int, err string, ctx []byte, res bool, runtime float64, blockErr rune, errors error, cause error) (string, error) {
	return fmt.Sprintln("fallback", e, err, cause), nil
}

// Unnamed has unnamed parameters; the wrapper must name them to forward them.
//
//sentinel:resource name=collide.unnamed
func (s *Service) Unnamed(context.Context, int, string) (string, error) {
	return "unnamed", nil
}

// Blank has blank parameters next to one named like a generated name.
//
//sentinel:resource name=collide.blank fallback=blankFallback
func (s *Service) Blank(_ context.Context, _ int, arg1 string) (string, error) {
	return "blank " + arg1, s.Fail
}

func (s *Service) blankFallback(_ context.Context, n int, arg1 string) (string, error) {
	return fmt.Sprintln("blankFallback", n, arg1), nil
}

// Wait has a parameter named like the package of its own type.
//
//sentinel:resource name=collide.wait
func (s *Service) Wait(time time.Duration) (time.Duration, error) {
	return 2 * time, nil
}

// Label is a named string.
type Label string

// Convert has parameters named after the types the wrapper converts keys
// to; the wrapper renames them so that the conversions still mean the types.
//
//sentinel:resource name=collide.convert
func (s *Service) Convert(ctx context.Context, int64 int32, float64 float32, string Label, bool bool, uint64 uint8) (string, error) {
	return fmt.Sprintln(int64, float64, string, bool, uint64), nil
}
