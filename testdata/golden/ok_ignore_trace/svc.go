// Package svc lists ignored and traced errors: values (errors.Is) and
// types (errors.As), from this and other packages.
package svc

import (
	"context"
	"errors"
	"io"

	"example.com/golden/ok_ignore_trace/errs"
)

// ErrNotFound is an error value.
var ErrNotFound = errors.New("not found")

// NotFoundError is an error type with a pointer receiver.
type NotFoundError struct{ Key string }

func (e *NotFoundError) Error() string { return e.Key + " not found" }

// CodeError is an error type with a value receiver.
type CodeError int

func (c CodeError) Error() string { return "code" }

// Temporary is an interface embedding error.
type Temporary interface {
	error
	Temporary() bool
}

// Service is guarded.
type Service struct{}

// Get ignores some errors and traces others; the quoted list has blanks.
//
//sentinel:resource ignore=ErrNotFound,*NotFoundError,io.EOF,CodeError trace="errs.ErrConflict, *errs.TimeoutError, Temporary"
func (s *Service) Get(ctx context.Context, key string) (string, error) {
	switch key {
	case "":
		return "", io.EOF
	case "busy":
		return "", errs.ErrConflict
	}
	return key, nil
}
