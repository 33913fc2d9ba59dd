// Package svc takes its handlers from another package, one imported under
// another name.
package svc

import (
	"context"

	h "example.com/golden/ok_other_pkg/handlers"
)

// Service is guarded.
type Service struct{}

// Delete uses pkg.Func handlers.
//
//sentinel:resource name=svc.delete blockHandler=h.Blocked fallback=h.Fallback
func (s *Service) Delete(ctx context.Context, id string) error { return nil }

// Purge is a function with a defaultFallback from another package.
//
//sentinel:resource defaultFallback=h.Default
func Purge(ctx context.Context, id string) error { return nil }

// Go counts only code as a use of an import, not a directive.
var _ = h.Default
