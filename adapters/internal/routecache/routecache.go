// Package routecache is the adapters' table from what names a request's
// resource (a route, a method and host) to what guards it. Lookups read an
// immutable map without a lock or an allocation; a key seen for the first
// time replaces the map under a mutex, so the table suits the bounded sets of
// keys a service's routes and dependencies make, not request data.
package routecache

import (
	"sync"
	"sync/atomic"
)

// Map is a table of values by key; the zero Map is empty and ready for use.
// It is safe for concurrent use.
type Map[K comparable, V any] struct {
	m  atomic.Pointer[map[K]V]
	mu sync.Mutex
}

// Load returns the value of k and whether there is one.
func (m *Map[K, V]) Load(k K) (V, bool) {
	if p := m.m.Load(); p != nil {
		v, ok := (*p)[k]
		return v, ok
	}
	var zero V
	return zero, false
}

// LoadOrMake returns the value of k, calling make to create it when there is
// none. make runs at most once per key, under the table's mutex.
func (m *Map[K, V]) LoadOrMake(k K, make func() V) V {
	if v, ok := m.Load(k); ok {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var old map[K]V
	if p := m.m.Load(); p != nil {
		old = *p
	}
	if v, ok := old[k]; ok {
		return v
	}
	v := make()
	next := map[K]V{k: v}
	for kk, vv := range old {
		next[kk] = vv
	}
	m.m.Store(&next)
	return v
}

// Len is the number of keys.
func (m *Map[K, V]) Len() int {
	if p := m.m.Load(); p != nil {
		return len(*p)
	}
	return 0
}
