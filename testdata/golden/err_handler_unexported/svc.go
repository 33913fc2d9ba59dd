// Package svc names an unexported function of another package as its
// blockHandler. The message is the same whether package handlers is read
// from source (loaded as a target) or from export data (a dependency only,
// as an analyzer sees it), where unexported functions are absent.
package svc

import (
	"context"

	"example.com/golden/err_handler_unexported/handlers"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource blockHandler=handlers.unexported
func (s *Service) Get(ctx context.Context) error { return nil }

var _ = handlers.Keep

var _ *runtime.BlockError
