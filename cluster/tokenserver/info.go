package tokenserver

import (
	"fmt"
	"sort"
)

// SetFlowConfig replaces how budgets are judged; requests decided from
// then on use it. A namespace's request window keeps the shape it was
// created with.
func (s *Server) SetFlowConfig(cfg FlowConfig) error {
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("tokenserver: %w", err)
	}
	d := cfg.WithDefaults()
	s.flow.Store(&d)
	return nil
}

// FlowConfig returns how budgets are judged, defaults filled in.
func (s *Server) FlowConfig() FlowConfig { return *s.flow.Load() }

// AddNamespaces makes the server serve namespaces besides the ones it has.
func (s *Server) AddNamespaces(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if n != "" {
			s.namespaceLocked(n)
		}
	}
}

// Clients returns the addresses (ip:port) of the clients connected in
// namespace ns, sorted.
func (s *Server) Clients(ns string) []string {
	s.mu.Lock()
	n, ok := s.namespaces[ns]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return n.addresses()
}

// RequestQPS is namespace ns's token requests answered per second.
func (s *Server) RequestQPS(ns string) float64 {
	s.mu.Lock()
	n, ok := s.namespaces[ns]
	s.mu.Unlock()
	if !ok {
		return 0
	}
	return n.qps(s.nowMs())
}

// FlowMetric is one budget's statistics over its window.
type FlowMetric struct {
	Resource          string
	FlowID            int64
	PassQps, BlockQps float64
}

// Metrics returns the statistics of namespace ns's budgets, by flowId.
func (s *Server) Metrics(ns string) []FlowMetric {
	now := s.nowMs()
	var out []FlowMetric
	for id, b := range *s.budgets.Load() {
		if b.namespace.name != ns {
			continue
		}
		pass, block := b.stats(now)
		out = append(out, FlowMetric{Resource: b.rule.Resource, FlowID: id, PassQps: pass, BlockQps: block})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FlowID < out[j].FlowID })
	return out
}
