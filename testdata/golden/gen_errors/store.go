// Package errs shows ignore= and trace=: which errors are traced (and so
// counted by circuit breakers and answered by the fallback) and which pass
// through unchanged.
package errs

import (
	"context"
	"errors"
	"io"
)

// Errors of the store.
var (
	ErrNotFound = errors.New("not found")
	ErrTimeout  = errors.New("timeout")
	ErrDenied   = errors.New("denied")
	// ErrSlowDisk is a *TimeoutError value: trace= matches its type, ignore=
	// its value, and ignore wins.
	ErrSlowDisk error = &TimeoutError{Op: "disk"}
)

// ValidationError is a caller's mistake, not the store's.
type ValidationError struct{ Field string }

func (e *ValidationError) Error() string { return "invalid " + e.Field }

// TimeoutError is a timeout of one operation.
type TimeoutError struct{ Op string }

func (e *TimeoutError) Error() string { return e.Op + " timed out" }

// Store returns Err from every method when it is set; its fallbacks keep
// the error they were given in Got.
type Store struct {
	Err error
	Got error
}

// Get ignores not-found and validation errors (and io.EOF): they are answers,
// not failures of the store.
//
//sentinel:resource name=errs.get ignore=ErrNotFound,*ValidationError,io.EOF fallback=getFallback
func (s *Store) Get(ctx context.Context, key string) (string, error) {
	if s.Err != nil {
		return "partial", s.Err
	}
	if key == "" {
		return "", io.EOF // the end of a key scan
	}
	return "value of " + key, nil
}

// Put traces only timeouts, except ErrSlowDisk, which it ignores.
//
//sentinel:resource name=errs.put trace=ErrTimeout,*TimeoutError ignore=ErrSlowDisk fallback=putFallback
func (s *Store) Put(ctx context.Context, key, value string) error {
	return s.Err
}

func (s *Store) getFallback(ctx context.Context, key string, err error) (string, error) {
	s.Got = err
	return "fallback for " + key, nil
}

func (s *Store) putFallback(ctx context.Context, key, value string, err error) error {
	s.Got = err
	return errors.Join(errors.New("put queued"), err)
}
