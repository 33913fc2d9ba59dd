// Package svc takes handlers promoted from embedded types, as Java takes
// them from a superclass.
package svc

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Base holds handlers shared by several services.
type Base struct{}

// Blocked answers a blocked Get.
func (Base) Blocked(ctx context.Context, id int, blockErr *runtime.BlockError) (string, error) {
	return "blocked", nil
}

// Degraded answers any failure.
func (*Base) Degraded(err error) (string, error) { return "degraded", nil }

// Middle embeds Base by pointer.
type Middle struct{ *Base }

// Service embeds Middle, two levels above Base.
type Service struct {
	Middle
}

// Get is guarded by handlers of Base.
//
//sentinel:resource blockHandler=Blocked defaultFallback=Degraded
func (s Service) Get(ctx context.Context, id int) (string, error) { return "ok", nil }
