// Package imported names a misspelt handler of another package, and a
// defaultFallback that does not exist yet.
package imported

import (
	"context"

	"example.com/analyzertest/imported/handlers"
)

var _ = handlers.Fallback

// Ping's fallback is misspelt.
// want +2 "fallback handlers.Fallbak not found: package handlers has no function Fallbak; did you mean Fallback\\?"
//
//sentinel:resource fallback=handlers.Fallbak
func Ping(ctx context.Context) error {
	return nil
}

// Box is guarded.
type Box struct{ n int }

// Size's defaultFallback does not exist.
// want +2 "defaultFallback sizeDefault not found"
//
//sentinel:resource defaultFallback=sizeDefault
func (b Box) Size() (int, error) {
	return b.n, nil
}
