// Package ledger has hot-parameter items that match here and not in Java.
package ledger

import "context"

// Post records an entry.
//
//sentinel:resource name=itemjava.post
func Post(ctx context.Context, account int64, branch int32, rate float32, code string, n int, ids []int64) error {
	return nil
}
