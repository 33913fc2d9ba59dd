// Package svc has handlers whose trailing parameter has the wrong type.
package svc

import (
	"context"
	"errors"
)

// Service is guarded.
type Service struct{}

// Get's blockHandler takes an error instead of *runtime.BlockError, and its
// fallback takes a string instead of an error.
//
//sentinel:resource blockHandler=getBlocked fallback=getFallback
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }

func (s *Service) getBlocked(ctx context.Context, id int, err error) (string, error) { return "", err }

func (s *Service) getFallback(ctx context.Context, id int, why string) (string, error) {
	return "", errors.New(why)
}
