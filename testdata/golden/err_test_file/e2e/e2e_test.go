// Package e2e has test files only.
package e2e

import "context"

// Scenario is in a directory of test files only.
//
//sentinel:resource name=e2e.scenario
func Scenario(ctx context.Context) error { return nil }
