package httpguard

import (
	"net/http"
	"sync"

	"github.com/sentinelgen/sentinelgen/internal/statuswriter"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// writers pools the ResponseWriters that record statuses: the handler
// holds one as an http.ResponseWriter, so it cannot live on the stack.
var writers = sync.Pool{New: func() any { return new(statuswriter.Writer) }}

// getWriter returns a pooled status writer over w.
func getWriter(w http.ResponseWriter) *statuswriter.Writer {
	sw := writers.Get().(*statuswriter.Writer)
	sw.W = w
	return sw
}

// putWriter pools sw again, dropping its writer.
func putWriter(sw *statuswriter.Writer) {
	*sw = statuswriter.Writer{}
	writers.Put(sw)
}

// call is a request a Route admitted: the runtime Entry, entered in place.
// Calls are pooled: Route.Begin hands the call to the middleware, which
// holds it until Call.End, so it cannot live on the stack.
type call struct {
	e runtime.Entry
}

var calls = sync.Pool{New: func() any { return new(call) }}

func getCall() *call { return calls.Get().(*call) }

func (c *call) release() {
	*c = call{}
	calls.Put(c)
}
