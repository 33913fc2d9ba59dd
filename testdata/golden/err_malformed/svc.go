// Package svc has malformed directives.
package svc

import "context"

// Service is guarded.
type Service struct{}

// A has a key without '=', a value with '=' and an unknown entryType.
//
//sentinel:resource name entryType=sideways resourceType=queue fallback=a=b
func (s *Service) A(ctx context.Context) error { return nil }

// B has an unterminated quote.
//
//sentinel:resource name="order service
func (s *Service) B(ctx context.Context) error { return nil }

// C has text glued to a quoted value, a bad handler name and a bad list entry.
//
//sentinel:resource name="c"x blockHandler=1h ignore=Err-A =x
func (s *Service) C(ctx context.Context) error { return nil }
