// Package svc puts directives where they do not apply.
package svc

import "context"

//sentinel:resource name=onType
type Service struct {
	//sentinel:resource name=onField
	Field int
}

// Doer is an interface.
type Doer interface {
	//sentinel:resource name=onInterfaceMethod
	Do(ctx context.Context) error
}

//sentinel:resource name=onVar
var counter int

//sentinel:resource name=floating

// Get is guarded, but the directive above is separated by a blank line.
func (s *Service) Get(ctx context.Context) error {
	//sentinel:resource name=inBody
	return nil
}
