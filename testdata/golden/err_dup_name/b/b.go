// Package b declares the resource "orders" too.
package b

import "context"

// Service is guarded.
type Service struct{}

// List is guarded under a name package a uses as well.
//
//sentinel:resource name=orders
func (s *Service) List(ctx context.Context) error { return nil }
