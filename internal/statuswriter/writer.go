// Package statuswriter is the http.ResponseWriter wrapper the adapters hand
// handlers to learn the status of a response: the status decides whether a
// call is traced as failed.
package statuswriter

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// Writer records the status written through it. Set W before use; the
// zero Status means nothing was written (or the connection was hijacked).
// It keeps the wrapped writer's optional interfaces that handlers rely on.
type Writer struct {
	W      http.ResponseWriter
	Status int
}

// Header is the wrapped ResponseWriter's.
func (c *Writer) Header() http.Header { return c.W.Header() }

// WriteHeader records the first final status (1xx are informational).
func (c *Writer) WriteHeader(status int) {
	if c.Status == 0 && status >= 200 {
		c.Status = status
	}
	c.W.WriteHeader(status)
}

// Write records the implicit 200 of a write before WriteHeader.
func (c *Writer) Write(b []byte) (int, error) {
	if c.Status == 0 {
		c.Status = http.StatusOK
	}
	return c.W.Write(b)
}

// WriteString keeps the wrapped writer's io.StringWriter, which spares
// io.WriteString a conversion to []byte (an allocation per call).
func (c *Writer) WriteString(s string) (int, error) {
	if c.Status == 0 {
		c.Status = http.StatusOK
	}
	return io.WriteString(c.W, s)
}

// ReadFrom keeps the wrapped writer's io.ReaderFrom (sendfile for files).
func (c *Writer) ReadFrom(src io.Reader) (int64, error) {
	if c.Status == 0 {
		c.Status = http.StatusOK
	}
	if rf, ok := c.W.(io.ReaderFrom); ok {
		return rf.ReadFrom(src)
	}
	return io.Copy(writerOnly{c.W}, src)
}

// writerOnly hides ReadFrom, so io.Copy does not call back into it.
type writerOnly struct{ io.Writer }

// Flush flushes the wrapped writer when it can (streaming responses).
func (c *Writer) Flush() {
	if c.Status == 0 {
		c.Status = http.StatusOK
	}
	_ = http.NewResponseController(c.W).Flush()
}

// Hijack hands over the connection when the wrapped writer can; the
// request then has no status and is not traced as failed.
func (c *Writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(c.W).Hijack()
}

// Unwrap lets http.ResponseController reach the wrapped writer.
func (c *Writer) Unwrap() http.ResponseWriter { return c.W }
