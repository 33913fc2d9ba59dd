package transport

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// connLimiter is a net.Listener that holds at most max connections, and at
// most perClient from one client address, so that slow or idle clients
// cannot take every file descriptor. When a new connection would go over a
// cap, the limiter closes the connection that has waited longest without
// delivering a whole request (a slow sender, or a keep-alive connection
// idle since its last answer), taken from the client holding the most
// connections: a client that sends its request at once is served, and the
// slots a flood takes are the flood's own. Only when every connection is
// being served is the new one closed at once.
type connLimiter struct {
	net.Listener
	max, perClient int

	mu       sync.Mutex
	total    int
	byClient map[string]*list.List // of *limitedConn, longest waiting first
}

// limitedConn is one connection the limiter holds.
type limitedConn struct {
	net.Conn
	l      *connLimiter
	client string
	elem   *list.Element // nil once out of the limiter's lists
	busy   atomic.Bool   // a whole request is read and being answered
	once   sync.Once
}

func newConnLimiter(ln net.Listener, max, perClient int) *connLimiter {
	return &connLimiter{Listener: ln, max: max, perClient: perClient, byClient: map[string]*list.List{}}
}

// Accept returns the next connection, making room for it when a cap is
// reached.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if lc := l.admit(c); lc != nil {
			return lc, nil
		}
	}
}

// admit takes c in, closing the connections it displaces; nil means c was
// closed, no slot being free.
func (l *connLimiter) admit(c net.Conn) *limitedConn {
	client := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(client); err == nil {
		client = h
	}
	var victims []*limitedConn
	l.mu.Lock()
	refuse := func() *limitedConn {
		l.mu.Unlock()
		for _, v := range victims {
			_ = v.Conn.Close()
		}
		_ = c.Close()
		return nil
	}
	if mine := l.byClient[client]; mine != nil && mine.Len() >= l.perClient {
		v := l.waitingLongest(mine)
		if v == nil {
			return refuse()
		}
		l.drop(v)
		victims = append(victims, v)
	}
	if l.total >= l.max {
		v := l.waitingLongest(l.heaviest())
		if v == nil {
			return refuse()
		}
		l.drop(v)
		victims = append(victims, v)
	}
	mine := l.byClient[client]
	if mine == nil {
		mine = list.New()
		l.byClient[client] = mine
	}
	lc := &limitedConn{Conn: c, l: l, client: client}
	lc.elem = mine.PushBack(lc)
	l.total++
	l.mu.Unlock()
	for _, v := range victims {
		_ = v.Conn.Close()
	}
	return lc
}

// heaviest is the list of the client holding the most connections.
func (l *connLimiter) heaviest() *list.List {
	var most *list.List
	for _, cl := range l.byClient {
		if most == nil || cl.Len() > most.Len() {
			most = cl
		}
	}
	return most
}

// waitingLongest is the connection of cl that has waited longest without
// being served, or nil.
func (l *connLimiter) waitingLongest(cl *list.List) *limitedConn {
	if cl == nil {
		return nil
	}
	for e := cl.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*limitedConn); !c.busy.Load() {
			return c
		}
	}
	return nil
}

// drop takes c out of the lists; l.mu is held.
func (l *connLimiter) drop(c *limitedConn) {
	if c.elem == nil {
		return
	}
	cl := l.byClient[c.client]
	cl.Remove(c.elem)
	c.elem = nil
	l.total--
	if cl.Len() == 0 {
		delete(l.byClient, c.client)
	}
}

// Close closes the connection and frees its slot.
func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.drop(c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// served marks c as answering a whole request (true) or as waiting for the
// next one (false): a waiting connection goes to the back of the line.
func (c *limitedConn) served(busy bool) {
	c.busy.Store(busy)
	if busy {
		return
	}
	c.l.mu.Lock()
	if c.elem != nil {
		c.l.byClient[c.client].MoveToBack(c.elem)
	}
	c.l.mu.Unlock()
}

// connKey is the request context's key of the connection it came on.
type connKey struct{}

// connContext records the connection in every request's context.
func connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// connState puts a connection back in line when it waits for a request.
func connState(c net.Conn, st http.ConnState) {
	if lc, ok := c.(*limitedConn); ok && st == http.StateIdle {
		lc.served(false)
	}
}

// busy marks r's connection as served, once r is read whole: the limiter
// then leaves it alone until the answer is written.
func busy(r *http.Request) {
	if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
		lc.served(true)
	}
}
