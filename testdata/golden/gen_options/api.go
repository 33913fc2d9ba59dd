// Package options sets entryType and resourceType, which become the
// resource's options.
package options

import "context"

// Handle is an inbound web endpoint.
//
//sentinel:resource name=options.handle entryType=in resourceType=web
func Handle(ctx context.Context, path string) (int, error) { return 200, nil }

// Query is an outbound database call with the default name.
//
//sentinel:resource resourceType=db
func Query(ctx context.Context, sql string) (int, error) { return 1, nil }
