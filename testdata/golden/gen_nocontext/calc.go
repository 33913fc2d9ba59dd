// Package nocontext guards methods without a context.Context: the wrapper
// enters with context.Background().
package nocontext

import (
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrDivideByZero is Divide's business error.
var ErrDivideByZero = errors.New("divide by zero")

// Calc computes.
type Calc struct{ Calls int }

// Divide divides a by b.
//
//sentinel:resource name=nocontext.divide blockHandler=divideBlocked
func (c *Calc) Divide(a, b int) (int, error) {
	c.Calls++
	if b == 0 {
		return 0, ErrDivideByZero
	}
	return a / b, nil
}

func (c *Calc) divideBlocked(a, b int, blockErr *runtime.BlockError) (int, error) {
	return -1, nil
}
