package svc

import "context"

// fake is a test double whose method carries a directive.
type fake struct{}

// Do is in an in-package test file.
//
//sentinel:resource name=svc.fakeDo
func (f *fake) Do(ctx context.Context) error { return nil }

// Near is a near miss in a test file.
//
// sentinel:resource name=svc.near
func Near(ctx context.Context) error { return nil }
