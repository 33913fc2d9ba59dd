// Package noimport does not import the runtime package yet: the stub's
// fix adds the import.
package noimport

import (
	"context"
)

// Ping names a blockHandler that does not exist yet.
// want +2 "blockHandler pingBlocked not found in package noimport"
//
//sentinel:resource blockHandler=pingBlocked
func Ping(ctx context.Context) error {
	return nil
}
