// Package svc has a line that starts with a backquote: the raw string it
// opens runs to the last backquote of the file. The diagnostic is one line.
package svc

import "context"

// Service is guarded.
type Service struct{}

`//sentinel:resource name=get
func (s *Service) Get(ctx context.Context) error { return nil }

// Put is guarded.
//
//sentinel:resource name=put
func (s *Service) Put(ctx context.Context) error { return nil }

// Del is guarded; the backquote in its name ends the raw string.
//
//sentinel:resource name=del`
func (s *Service) Del(ctx context.Context) error { return nil }
