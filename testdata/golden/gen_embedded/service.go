// Package embedded finds handlers promoted through embedding, as Sentinel
// finds them in a superclass: one from an embedded value, one from an
// embedded pointer.
package embedded

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Base carries the block handler shared by services.
type Base struct{ Name string }

func (b Base) blocked(ctx context.Context, id int, blockErr *runtime.BlockError) (string, error) {
	return b.Name + " busy", nil
}

// Fallbacks carries the fallback shared by services.
type Fallbacks struct{ Answer string }

func (f *Fallbacks) fallback(ctx context.Context, id int, err error) (string, error) {
	return f.Answer, nil
}

// Service embeds both.
type Service struct {
	Base
	*Fallbacks
	Err error
}

// Get is guarded with promoted handlers.
//
//sentinel:resource name=embedded.get blockHandler=blocked fallback=fallback
func (s *Service) Get(ctx context.Context, id int) (string, error) {
	if s.Err != nil {
		return "", s.Err
	}
	return "item", nil
}
