// Package resp is a minimal client of the Redis protocol (RESP2): one
// connection, one command at a time, string and integer replies. It serves
// the tools that read a key or two without a Redis client library
// (internal/rulestore) and the tests that set one.
package resp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// Conn is one connection to a Redis server. It is not safe for concurrent
// use.
type Conn struct {
	conn net.Conn
	in   *bufio.Reader
}

// Dial connects to addr ("host:port"); the context's deadline, if any,
// bounds the dial and every later command.
func Dial(ctx context.Context, addr string) (*Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	}
	return &Conn{conn: conn, in: bufio.NewReader(conn)}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }

// Do sends one command and reads its reply: the bytes of a bulk string,
// simple string or integer reply with found true; found false for a nil
// reply; an error for an error reply (its text after "redis: ") or a reply
// of another type.
func (c *Conn) Do(args ...string) (value []byte, found bool, err error) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(c.conn, b.String()); err != nil {
		return nil, false, err
	}
	line, err := c.line()
	if err != nil {
		return nil, false, err
	}
	switch line[0] {
	case '+', ':':
		return []byte(line[1:]), true, nil
	case '-':
		return nil, false, fmt.Errorf("redis: %s", line[1:])
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil {
			return nil, false, fmt.Errorf("redis: bad reply %q", line)
		}
		if n < 0 {
			return nil, false, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(c.in, buf); err != nil {
			return nil, false, err
		}
		return buf[:n], true, nil
	default:
		return nil, false, fmt.Errorf("redis: unexpected reply %q", line)
	}
}

// line reads one CRLF-terminated reply line, without the CRLF.
func (c *Conn) line() (string, error) {
	s, err := c.in.ReadString('\n')
	if err != nil {
		return "", err
	}
	s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
	if s == "" {
		return "", fmt.Errorf("redis: empty reply line")
	}
	return s, nil
}
