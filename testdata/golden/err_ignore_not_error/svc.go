// Package svc lists ignore and trace entries that are not errors.
package svc

import (
	"context"
	"io"
)

// Limit is not an error.
var Limit = 10

// Code is a type that is not an error.
type Code int

// PtrErr implements error on its pointer only.
type PtrErr struct{}

func (*PtrErr) Error() string { return "ptr" }

// ErrValue is an error value.
var ErrValue = io.EOF

const answer = 42

// Get's ignore and trace lists hold non-errors.
//
//sentinel:resource ignore=Limit,Code,PtrErr,*ErrValue,answer trace=io.Reader,*io.EOF
func Get(ctx context.Context) error { return nil }

// Box is generic.
type Box[T any] struct{}

func (Box[T]) Error() string { return "box" }

// Put ignores a generic type.
//
//sentinel:resource ignore=Box
func Put(ctx context.Context) error { return nil }
