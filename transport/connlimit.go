package transport

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connLimiter is a net.Listener that holds at most max connections, and at
// most perClient from one client address, so that slow or idle clients
// cannot take every file descriptor. When a new connection would go over a
// cap, the limiter closes the connection that has waited longest without
// delivering a whole request (a slow sender, or a keep-alive connection
// idle since its last answer), taken from the client holding the most
// connections: a client that sends its request at once is served, and the
// slots a flood takes are the flood's own. Connections the server has not
// read from yet go last: a request just accepted is not displaced by the
// connections accepted after it while older ones are stalled mid-request.
// Only when every connection is being served is the new one closed at once.
type connLimiter struct {
	net.Listener
	max, perClient int

	mu       sync.Mutex
	total    int
	byClient map[string]*list.List // of *limitedConn, longest waiting first

	displaced, displacedUnread, refused atomic.Int64 // connections closed to make room, of them unread, closed at once
}

// The phases of a connection.
const (
	connNew     = iota // accepted, nothing read yet
	connWaiting        // a request under way, or idle between requests
	connServed         // a whole request read, its answer not yet written
)

// limitedConn is one connection the limiter holds.
type limitedConn struct {
	net.Conn
	l      *connLimiter
	client string
	elem   *list.Element // nil once out of the limiter's lists
	phase  atomic.Int32  // connNew, connWaiting or connServed
	since  time.Time     // when it was accepted
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
// closed, no slot being free. It may wait, holding up the next accepts,
// until the oldest unread connection has had unreadGrace to be read.
func (l *connLimiter) admit(c net.Conn) *limitedConn {
	client := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(client); err == nil {
		client = h
	}
	for {
		lc, wait := l.tryAdmit(c, client)
		if wait <= 0 {
			return lc
		}
		time.Sleep(wait)
	}
}

// unreadGrace is how long a connection the server has not read from yet is
// safe from being displaced: the time the server needs to read a request
// sent at once, even on a busy machine, so that a burst of connections
// accepted together does not displace the ones accepted just before it.
const unreadGrace = 100 * time.Millisecond

// tryAdmit is one attempt of admit: it takes c in, or closes it, or says
// how long to wait before the next attempt.
func (l *connLimiter) tryAdmit(c net.Conn, client string) (*limitedConn, time.Duration) {
	now := time.Now()
	l.mu.Lock()
	var victims []*limitedConn
	if mine := l.byClient[client]; mine != nil && mine.Len() >= l.perClient {
		v, wait := l.waitingLongest(mine, nil, now)
		if wait > 0 {
			l.mu.Unlock()
			return nil, wait
		}
		if v == nil {
			return l.refuse(c), 0
		}
		victims = append(victims, v)
	}
	if l.total-len(victims) >= l.max {
		var except *limitedConn
		if len(victims) > 0 {
			except = victims[0]
		}
		v, wait := l.waitingLongest(l.heaviest(), except, now)
		if wait > 0 {
			l.mu.Unlock()
			return nil, wait
		}
		if v == nil {
			return l.refuse(c), 0
		}
		victims = append(victims, v)
	}
	for _, v := range victims {
		l.drop(v)
	}
	mine := l.byClient[client]
	if mine == nil {
		mine = list.New()
		l.byClient[client] = mine
	}
	lc := &limitedConn{Conn: c, l: l, client: client, since: now}
	lc.elem = mine.PushBack(lc)
	l.total++
	l.mu.Unlock()
	for _, v := range victims {
		l.displaced.Add(1)
		if v.phase.Load() == connNew {
			l.displacedUnread.Add(1)
		}
		_ = v.Conn.Close()
	}
	return lc, 0
}

// refuse closes c, no slot being free; l.mu is held and released.
func (l *connLimiter) refuse(c net.Conn) *limitedConn {
	l.mu.Unlock()
	l.refused.Add(1)
	_ = c.Close()
	return nil
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

// waitingLongest is the connection of cl, other than except, that has
// waited longest without being served, preferring one the server has read
// from; an unread one only once it is unreadGrace old, else how long until
// it is. It is nil with no wait when all are being served.
func (l *connLimiter) waitingLongest(cl *list.List, except *limitedConn, now time.Time) (*limitedConn, time.Duration) {
	if cl == nil {
		return nil, 0
	}
	var unread *limitedConn
	for e := cl.Front(); e != nil; e = e.Next() {
		c := e.Value.(*limitedConn)
		if c == except {
			continue
		}
		switch c.phase.Load() {
		case connWaiting:
			return c, 0
		case connNew:
			if unread == nil {
				unread = c
			}
		}
	}
	if unread == nil {
		return nil, 0
	}
	if age := now.Sub(unread.since); age < unreadGrace {
		return nil, unreadGrace - age
	}
	return unread, 0
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

// CloseWrite shuts the writing side when the connection can, as the HTTP
// server does before closing after an error answer, so that the answer
// reaches the client before the connection goes.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// served marks c as answering a whole request (true) or as waiting for the
// next one (false): a waiting connection goes to the back of the line.
func (c *limitedConn) served(busy bool) {
	if busy {
		c.phase.Store(connServed)
		return
	}
	c.phase.Store(connWaiting)
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

// connState follows a connection's phases: reading a request once the
// server has read from it, back in line when it waits for the next one.
func connState(c net.Conn, st http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		lc.phase.CompareAndSwap(connNew, connWaiting)
	case http.StateIdle:
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

// open is the number of connections held.
func (l *connLimiter) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}
