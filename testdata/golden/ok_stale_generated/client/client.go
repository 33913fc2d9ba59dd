// Package client uses the generated constructor of another target package.
package client

import (
	"context"

	"example.com/golden/ok_stale_generated"
)

// Run calls the guarded service.
func Run(ctx context.Context) error {
	if err := svc.GuardedPing(ctx); err != nil {
		return err
	}
	return svc.NewGuardedService(&svc.Service{}).Get(ctx)
}
