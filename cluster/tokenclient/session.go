package tokenclient

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/internal/tokenwire"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// errClosed ends the session of a client being closed.
var errClosed = errors.New("client closed")

// session is one connection to the server.
type session struct {
	c  *Client
	nc net.Conn

	wmu sync.Mutex
	w   tokenwire.Writer

	failOnce sync.Once
	failed   chan struct{}
}

// writeFlow sends a FLOW request.
func (s *session) writeFlow(xid int32, flowID int64, acquire int32, prioritized bool) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	frame, err := s.w.WriteFlow(xid, flowID, acquire, prioritized)
	if err != nil {
		return err
	}
	s.nc.SetWriteDeadline(time.Now().Add(s.c.cfg.RequestTimeout))
	_, err = s.nc.Write(frame)
	return err
}

// writeParamFlow sends a PARAM_FLOW request of arg's values.
func (s *session) writeParamFlow(xid int32, flowID int64, acquire int32, arg *runtime.ParamArg) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n := arg.Len()
	s.w.BeginParamFlow(xid, flowID, acquire, n)
	for i := range n {
		if err := s.w.Param(tokenwire.FromValue(arg.Value(i))); err != nil {
			return err
		}
	}
	frame, err := s.w.Frame()
	if err != nil {
		return err
	}
	s.nc.SetWriteDeadline(time.Now().Add(s.c.cfg.RequestTimeout))
	_, err = s.nc.Write(frame)
	return err
}

// fail ends the session once: the connection closes and the client
// reconnects.
func (s *session) fail(err error) {
	s.failOnce.Do(func() {
		s.c.conn.CompareAndSwap(s, nil)
		s.nc.Close()
		if errors.Is(err, errClosed) {
			s.c.log.Debug("token client: closed", "server", s.c.cfg.Addr)
		} else {
			s.c.log.Warn("token client: lost the token server", "server", s.c.cfg.Addr, "err", err)
		}
		close(s.failed)
	})
}

// read delivers the server's answers until the connection fails.
func (s *session) read() {
	in := bufio.NewReader(s.nc)
	buf := make([]byte, tokenwire.MaxPayload)
	for {
		payload, err := tokenwire.ReadFrame(in, buf)
		if err != nil {
			s.fail(err)
			return
		}
		resp, err := tokenwire.ParseResponse(payload)
		if err != nil {
			s.fail(err)
			return
		}
		if resp.Type == tokenwire.TypePing {
			continue
		}
		s.c.deliver(resp)
	}
}

// keepConnected connects, and reconnects after a loss, until Close.
func (c *Client) keepConnected() {
	defer close(c.done)
	backoff := minBackoff
	for {
		s, err := c.connect()
		if err == nil {
			backoff = minBackoff
			c.conn.Store(s)
			c.log.Info("token client: connected", "server", c.cfg.Addr, "namespace", c.cfg.Namespace)
			go s.read()
			select {
			case <-s.failed:
			case <-c.stop:
				s.fail(errClosed)
				return
			}
		} else {
			c.log.Debug("token client: cannot connect", "server", c.cfg.Addr, "err", err, "retry in", backoff)
		}
		select {
		case <-time.After(backoff):
		case <-c.stop:
			return
		}
		if err != nil {
			backoff = min(backoff*2, maxBackoff)
		}
	}
}

// connect dials the server and announces the namespace.
func (c *Client) connect() (*session, error) {
	nc, err := net.DialTimeout("tcp", c.cfg.Addr, c.cfg.ConnectTimeout)
	if err != nil {
		return nil, err
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	s := &session{c: c, nc: nc, failed: make(chan struct{})}
	s.wmu.Lock()
	frame, err := s.w.WritePing(0, c.cfg.Namespace)
	if err == nil {
		nc.SetWriteDeadline(time.Now().Add(c.cfg.ConnectTimeout))
		_, err = nc.Write(frame)
	}
	s.wmu.Unlock()
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("announcing namespace %q: %w", c.cfg.Namespace, err)
	}
	return s, nil
}
