package edge

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Order is one order of the example.
type Order struct {
	ID   string `json:"id"`
	Item string `json:"item"`
	Qty  int    `json:"qty"`
}

// ErrNotFound is returned for an order the store does not have.
var ErrNotFound = errors.New("order not found")

// StoreRead is the resource of the store's reads: an outbound call made
// from inside the HTTP handlers, which chain rules can limit per entrance
// (the route the request came in through).
const StoreRead = "edge.storeRead"

var storeRead = runtime.NewResource(StoreRead)

// Store keeps orders in memory.
type Store struct {
	mu     sync.Mutex
	orders map[string]Order
	next   int
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{orders: map[string]Order{}} }

// Add stores a new order and returns it with its ID.
func (s *Store) Add(item string, qty int) Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	o := Order{ID: strconv.Itoa(s.next), Item: item, Qty: qty}
	s.orders[o.ID] = o
	return o
}

// Get reads an order, guarded by the StoreRead resource. ctx is the
// request's: its entrance decides which chain rules apply.
func (s *Store) Get(ctx context.Context, id string) (Order, error) {
	var e runtime.Entry
	if be := storeRead.EntryTo(&e, ctx); be != nil {
		return Order{}, be
	}
	defer e.Exit()
	s.mu.Lock()
	o, ok := s.orders[id]
	s.mu.Unlock()
	if !ok {
		return Order{}, ErrNotFound
	}
	return o, nil
}
