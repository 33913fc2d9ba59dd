package svc_test

import "context"

// Probe is in the external test package.
//
//sentinel:resource name=svc.probe
func Probe(ctx context.Context) error { return nil }
