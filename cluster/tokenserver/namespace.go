package tokenserver

import (
	"sort"
	"sync"
)

// namespace is one namespace of the server: the clients connected under it
// (from their PING) and the limiter of its token requests.
type namespace struct {
	name string

	mu      sync.Mutex
	clients map[string]int // address → connections from it
	limiter *window        // answered requests, for MaxAllowedQps
}

func newNamespace(name string, cfg *FlowConfig) *namespace {
	return &namespace{name: name, clients: map[string]int{}, limiter: newWindow(cfg.SampleCount, int64(cfg.IntervalMs))}
}

// connected is the number of distinct client addresses connected under the
// namespace: the instances an AVG_LOCAL threshold is multiplied by.
func (n *namespace) connected() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.clients)
}

// join and leave count a connection from addr.
func (n *namespace) join(addr string) {
	n.mu.Lock()
	n.clients[addr]++
	n.mu.Unlock()
}

func (n *namespace) leave(addr string) {
	n.mu.Lock()
	if n.clients[addr]--; n.clients[addr] <= 0 {
		delete(n.clients, addr)
	}
	n.mu.Unlock()
}

// addresses lists the connected client addresses, sorted.
func (n *namespace) addresses() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]string, 0, len(n.clients))
	for a := range n.clients {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// allow counts one token request against maxQps, reporting whether it may
// be answered (Sentinel's GlobalRequestLimiter).
func (n *namespace) allow(nowMs int64, maxQps float64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.limiter.avg(nowMs, evPass)+1 > maxQps {
		return false
	}
	n.limiter.add(nowMs, evPass, 1)
	return true
}

// qps is the namespace's answered token requests per second.
func (n *namespace) qps(nowMs int64) float64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.limiter.avg(nowMs, evPass)
}
