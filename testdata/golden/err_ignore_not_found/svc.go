// Package svc lists ignore and trace entries that do not exist.
package svc

import (
	"context"
	"errors"
	"io"
)

// ErrNotFound is an error value.
var ErrNotFound = errors.New("not found")

// Get's lists are misspelt.
//
//sentinel:resource ignore=ErrNotFund,io.EOFF trace=os.ErrClosed,io.errWhence
func Get(ctx context.Context) error { return io.EOF }
