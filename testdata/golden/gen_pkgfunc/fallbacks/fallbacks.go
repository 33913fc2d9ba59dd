// Package fallbacks holds handlers shared by several services, as
// Sentinel's blockHandlerClass and fallbackClass do.
package fallbacks

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Request is a fetch request.
type Request struct{ URL string }

// FetchBlocked answers a blocked fetch.
func FetchBlocked(ctx context.Context, req *Request, blockErr *runtime.BlockError) ([]byte, error) {
	return []byte("blocked " + req.URL), nil
}

// FetchFallback answers a failed fetch.
func FetchFallback(ctx context.Context, req *Request, err error) ([]byte, error) {
	return []byte("fallback " + req.URL + ": " + err.Error()), nil
}

// Unavailable is a defaultFallback shared by many resources.
func Unavailable(err error) ([]byte, error) {
	return []byte("unavailable: " + err.Error()), nil
}
