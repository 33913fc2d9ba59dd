// Package svc names handlers that do not exist.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// CreateOrder's handler names are misspelt.
//
//sentinel:resource blockHandler=createOrderBlokced fallback=createOrderFallbak defaultFallback=nothingLikeIt
func (s *Service) CreateOrder(ctx context.Context, id string) error { return nil }

func (s *Service) createOrderBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) error {
	return nil
}

func createOrderFallback(ctx context.Context, id string, err error) error { return nil }

// Ping is a function whose handler is misspelt.
//
//sentinel:resource fallback=pingFalback
func Ping() error { return nil }

func pingFallback() error { return nil }
