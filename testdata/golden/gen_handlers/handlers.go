// Package handlers has one method per combination of handlers, to show
// which one answers a block and which one a business error.
package handlers

import (
	"context"
	"strconv"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service returns Err from every method when it is set. The handlers that
// take an error keep the last one in Got.
type Service struct {
	Err error
	Got error
}

func (s *Service) result(id int) (string, error) {
	if s.Err != nil {
		return "", s.Err
	}
	return "ok " + strconv.Itoa(id), nil
}

// BlockOnly has only a blockHandler: errors are traced and returned.
//
//sentinel:resource name=handlers.blockOnly blockHandler=blocked
func (s *Service) BlockOnly(ctx context.Context, id int) (string, error) { return s.result(id) }

// FallbackWithErr has a fallback that receives the error.
//
//sentinel:resource name=handlers.fallbackWithErr fallback=fallbackWithErr
func (s *Service) FallbackWithErr(ctx context.Context, id int) (string, error) { return s.result(id) }

// FallbackNoErr has a fallback without an error parameter.
//
//sentinel:resource name=handlers.fallbackNoErr fallback=fallbackNoErr
func (s *Service) FallbackNoErr(ctx context.Context, id int) (string, error) { return s.result(id) }

// DefaultWithErr has a defaultFallback that receives the error.
//
//sentinel:resource name=handlers.defaultWithErr defaultFallback=defaultWithErr
func (s *Service) DefaultWithErr(ctx context.Context, id int) (string, error) { return s.result(id) }

// DefaultNoErr has a defaultFallback without parameters.
//
//sentinel:resource name=handlers.defaultNoErr defaultFallback=defaultNoErr
func (s *Service) DefaultNoErr(ctx context.Context, id int) (string, error) { return s.result(id) }

// Bare has no handler: a block comes back as the *runtime.BlockError.
//
//sentinel:resource name=handlers.bare
func (s *Service) Bare(ctx context.Context, id int) (string, error) { return s.result(id) }

// All has every handler: the blockHandler wins on a block, the fallback on an error.
//
//sentinel:resource name=handlers.all blockHandler=blocked fallback=fallbackWithErr defaultFallback=defaultWithErr
func (s *Service) All(ctx context.Context, id int) (string, error) { return s.result(id) }

// FallbackAndDefault has no blockHandler: the fallback takes the block.
//
//sentinel:resource name=handlers.fallbackAndDefault fallback=fallbackNoErr defaultFallback=defaultNoErr
func (s *Service) FallbackAndDefault(ctx context.Context, id int) (string, error) {
	return s.result(id)
}

func (s *Service) blocked(ctx context.Context, id int, blockErr *runtime.BlockError) (string, error) {
	s.Got = blockErr
	return "blockHandler " + strconv.Itoa(id) + ": " + blockErr.Type().String(), nil
}

func (s *Service) fallbackWithErr(ctx context.Context, id int, err error) (string, error) {
	s.Got = err
	return "fallback " + strconv.Itoa(id) + ": " + err.Error(), nil
}

func (s *Service) fallbackNoErr(ctx context.Context, id int) (string, error) {
	return "fallback " + strconv.Itoa(id), nil
}

func (s *Service) defaultWithErr(err error) (string, error) {
	s.Got = err
	return "defaultFallback: " + err.Error(), nil
}

func (s *Service) defaultNoErr() (string, error) {
	return "defaultFallback", nil
}
