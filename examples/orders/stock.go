package orders

import (
	"context"
	"sync"
)

// QueryStock asks the inventory how many units of sku are available. It is a
// call to a dependency (the default entryType=out) of type rpc. With no
// blockHandler, a blocked query and a failed one both get the fallback's
// answer: the last level seen, marked as an estimate. A product page would
// rather show "about 40 left" than an error.
//
//sentinel:resource name=queryStock resourceType=rpc fallback=estimateStock
func (s *OrderService) QueryStock(ctx context.Context, sku string) (StockLevel, error) {
	n, err := s.inventory.Available(ctx, sku)
	if err != nil {
		return StockLevel{}, err
	}
	s.stock.remember(sku, n)
	return StockLevel{SKU: sku, Available: n}, nil
}

// estimateStock answers from memory only; see createOrderFallback for why a
// fallback makes no remote call.
func (s *OrderService) estimateStock(ctx context.Context, sku string, err error) (StockLevel, error) {
	s.outcomes.addFallback(fallbackReason(err))
	return StockLevel{SKU: sku, Available: s.stock.recall(sku), Estimated: true}, nil
}

// stockMemory keeps the last stock level seen per SKU.
type stockMemory struct {
	mu   sync.Mutex
	last map[string]int
}

func (m *stockMemory) remember(sku string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		m.last = make(map[string]int)
	}
	m.last[sku] = n
}

func (m *stockMemory) recall(sku string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last[sku]
}
