// Package callpolicy guards calls to a slow, failing inventory service with
// timeouts and budgeted retries.
package callpolicy

import (
	"context"
	"errors"
	"sync/atomic"
)

// ErrNotFound is a business answer: never retried, never traced.
var ErrNotFound = errors.New("not found")

// Inventory is the downstream. Fail makes the first calls fail: each call
// takes one from it while it is above zero. Wait makes Reserve wait for its
// context to end.
type Inventory struct {
	Fail    atomic.Int64
	Wait    bool
	Calls   atomic.Int64
	Missing bool
	Got     error // what a fallback was given
}

// Reserve reserves stock; it waits for its context when Wait is set.
//
//sentinel:resource name=callpolicy.reserve timeout=30ms fallback=reserveFallback
func (s *Inventory) Reserve(ctx context.Context, sku string) (int, error) {
	s.Calls.Add(1)
	if s.Wait {
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return 7, nil
}

func (s *Inventory) reserveFallback(ctx context.Context, sku string, err error) (int, error) {
	s.Got = err
	return -1, nil
}

// Fetch reads an item, retried twice when it fails.
//
//sentinel:resource name=callpolicy.fetch retries=2 retryBackoff=1ms retryBudget=0.5 ignore=ErrNotFound fallback=fetchFallback
func (s *Inventory) Fetch(ctx context.Context, id string) (string, error) {
	s.Calls.Add(1)
	if s.Missing {
		return "", ErrNotFound
	}
	if s.Fail.Add(-1) >= 0 {
		return "", errors.New("inventory unavailable")
	}
	return "item " + id, nil
}

func (s *Inventory) fetchFallback(ctx context.Context, id string, err error) (string, error) {
	s.Got = err
	return "cached " + id, nil
}

// Sync pushes changes: one retry, each attempt with its own deadline, no
// fallback.
//
//sentinel:resource name=callpolicy.sync timeout=20ms retries=1 retryBackoff=0s
func (s *Inventory) Sync(ctx context.Context) error {
	s.Calls.Add(1)
	if s.Wait {
		<-ctx.Done()
		return ctx.Err()
	}
	if s.Fail.Add(-1) >= 0 {
		return errors.New("sync failed")
	}
	return nil
}
