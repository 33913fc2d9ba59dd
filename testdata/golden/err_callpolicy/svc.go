// Package svc has timeout and retry keys that cannot work.
package svc

import "context"

// Service is guarded.
type Service struct{}

// NoContext has a timeout but no context to carry it.
//
//sentinel:resource timeout=800ms
func (s *Service) NoContext(id string) error { return nil }

// NoError has retries but no error to retry on.
//
//sentinel:resource retries=2 blockHandler=noErrorBlocked
func (s *Service) NoError(ctx context.Context) int { return 0 }

func (s *Service) noErrorBlocked(ctx context.Context) int { return -1 }

// Malformed has values of the wrong shape.
//
//sentinel:resource timeout=fast retries=0 retryBudget=2 retryBackoff=-1ms
func (s *Service) Malformed(ctx context.Context) error { return nil }

// Alone has retry settings without retries.
//
//sentinel:resource retryBackoff=10ms retryBudget=0.2
func (s *Service) Alone(ctx context.Context) error { return nil }

// Misspelt has keys close to timeout and retries.
//
//sentinel:resource timout=1s retires=2
func (s *Service) Misspelt(ctx context.Context) error { return nil }
