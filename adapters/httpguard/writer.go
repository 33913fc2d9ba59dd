package httpguard

import (
	"sync"

	"github.com/sentinelgen/sentinelgen/internal/statuswriter"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// call is one admitted request: the runtime Entry, the argument buffer and
// the ResponseWriter that records the status. Calls are pooled, so an
// admitted request allocates none of them.
type call struct {
	sw   statuswriter.Writer
	e    runtime.Entry
	args [4]runtime.ParamArg
}

var calls = sync.Pool{New: func() any { return new(call) }}

func getCall() *call { return calls.Get().(*call) }

func (c *call) release() {
	*c = call{}
	calls.Put(c)
}
