// Package errs declares errors used by another package's directives.
package errs

import "errors"

// ErrConflict is an error value.
var ErrConflict = errors.New("conflict")

// TimeoutError is an error type with a pointer receiver.
type TimeoutError struct{}

func (*TimeoutError) Error() string { return "timeout" }
