// Package fixes holds one directive per kind of suggested fix.
package fixes

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Order is what Service returns.
type Order struct{ ID string }

// Service is guarded.
type Service struct{}

// Get names a misspelt blockHandler, and a misspelt fallback in quotes.
// want +2 "blockHandler getBlokced not found in the method set of Service or package fixes; did you mean getBlocked\\?" "fallback getFallbak not found.*did you mean getFallback\\?"
//
//sentinel:resource blockHandler=getBlokced fallback="getFallbak"
func (s *Service) Get(ctx context.Context, id string) (*Order, error) {
	return nil, nil
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (*Order, error) {
	return nil, blockErr
}

func (s *Service) getFallback(ctx context.Context, id string, err error) (*Order, error) {
	return nil, err
}

// List names a fallback that does not exist yet.
// want +2 "fallback recoverList not found in the method set of Service or package fixes$"
//
//sentinel:resource fallback=recoverList
func (s *Service) List(ctx context.Context, limit int) ([]Order, int, bool, error) {
	return nil, 0, false, nil
}

// Put's blockHandler takes an error where the *runtime.BlockError goes.
// want +2 "blockHandler putBlocked has the wrong signature"
//
//sentinel:resource blockHandler=putBlocked
func (s *Service) Put(ctx context.Context, o Order) (Order, error) {
	return o, nil
}

func (s *Service) putBlocked(ctx context.Context, o Order, err error) (Order, error) {
	return o, err
}

// Delete's fallback has the wrong results.
// want +2 "fallback deleteFallback has the wrong signature"
//
//sentinel:resource fallback=deleteFallback
func (s *Service) Delete(ctx context.Context, id string) (bool, error) {
	return true, nil
}

func (s *Service) deleteFallback(ctx context.Context, id string, err error) error {
	return err
}

// Ping is a function whose blockHandler is missing.
// want +2 "blockHandler onPingLimit not found in package fixes$"
//
//sentinel:resource blockHandler=onPingLimit
func Ping(ctx context.Context, host string) (string, error) {
	return host, nil
}

// Stop's blockHandler lacks the trailing *runtime.BlockError.
// want +2 "blockHandler stopBlocked has the wrong signature"
//
//sentinel:resource blockHandler=stopBlocked
func Stop(ctx context.Context) error {
	return nil
}

func stopBlocked(ctx context.Context) error {
	return errors.New("blocked")
}

// Wrong's blockHandler takes other leading parameters: no fix is offered.
// want +2 "blockHandler wrongBlocked has the wrong signature"
//
//sentinel:resource blockHandler=wrongBlocked
func Wrong(ctx context.Context, n int) error {
	return nil
}

func wrongBlocked(n int, blockErr *runtime.BlockError) error {
	return blockErr
}
