// Package pkgfunc uses handlers from another package, imported under a name
// that differs from the package's own.
package pkgfunc

import (
	"context"
	"errors"

	fb "example.com/golden/gen_pkgfunc/fallbacks"
)

// ErrDown is the backend's failure.
var ErrDown = errors.New("backend down")

// Client fetches URLs.
type Client struct{ Down bool }

// Fetch fetches req.
//
//sentinel:resource name=pkgfunc.fetch blockHandler=fb.FetchBlocked fallback=fb.FetchFallback
func (c *Client) Fetch(ctx context.Context, req *fb.Request) ([]byte, error) {
	if c.Down {
		return nil, ErrDown
	}
	return []byte("body of " + req.URL), nil
}

// Ping checks a backend; its answers come from a shared defaultFallback.
//
//sentinel:resource name=pkgfunc.ping defaultFallback=fb.Unavailable
func Ping(ctx context.Context, host string) ([]byte, error) {
	if host == "" {
		return nil, ErrDown
	}
	return []byte("pong " + host), nil
}
