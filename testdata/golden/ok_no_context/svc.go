// Package svc guards methods without a context.Context parameter.
package svc

// Service is guarded.
type Service struct{}

// Lookup has no context.
//
//sentinel:resource defaultFallback=unavailable
func (s Service) Lookup(key string) (int, error) { return 0, nil }

func (s Service) unavailable() (int, error) { return -1, nil }

// Count has no error result; its fallback answers blocks.
//
//sentinel:resource fallback=countFallback
func (s Service) Count() int { return 1 }

func (s Service) countFallback() int { return 0 }
