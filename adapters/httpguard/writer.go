package httpguard

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// call is one admitted request: the runtime Entry, the argument buffer and
// the ResponseWriter that records the status. Calls are pooled, so an
// admitted request allocates none of them.
type call struct {
	w      http.ResponseWriter
	status int
	e      runtime.Entry
	args   [4]runtime.ParamArg
}

var calls = sync.Pool{New: func() any { return new(call) }}

func getCall() *call { return calls.Get().(*call) }

func (c *call) release() {
	*c = call{}
	calls.Put(c)
}

// Header is the wrapped ResponseWriter's.
func (c *call) Header() http.Header { return c.w.Header() }

// WriteHeader records the first final status (1xx are informational).
func (c *call) WriteHeader(status int) {
	if c.status == 0 && status >= 200 {
		c.status = status
	}
	c.w.WriteHeader(status)
}

// Write records the implicit 200 of a write before WriteHeader.
func (c *call) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.w.Write(b)
}

// WriteString keeps the wrapped writer's io.StringWriter, which spares
// io.WriteString a conversion to []byte (an allocation per call).
func (c *call) WriteString(s string) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return io.WriteString(c.w, s)
}

// ReadFrom keeps the wrapped writer's io.ReaderFrom (sendfile for files).
func (c *call) ReadFrom(src io.Reader) (int64, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if rf, ok := c.w.(io.ReaderFrom); ok {
		return rf.ReadFrom(src)
	}
	return io.Copy(writerOnly{c.w}, src)
}

// writerOnly hides ReadFrom, so io.Copy does not call back into it.
type writerOnly struct{ io.Writer }

// Flush flushes the wrapped writer when it can (streaming responses).
func (c *call) Flush() {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	_ = http.NewResponseController(c.w).Flush()
}

// Hijack hands over the connection when the wrapped writer can; the
// request then has no status and is not traced as failed.
func (c *call) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(c.w).Hijack()
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (c *call) Unwrap() http.ResponseWriter { return c.w }
