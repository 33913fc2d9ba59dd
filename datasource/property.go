package datasource

import (
	"sync"

	"github.com/sentinelgen/sentinelgen/rules"
)

// Property holds the last good set of a source and tells listeners about
// each new one; it is Sentinel's SentinelProperty. A Watcher keeps one per
// source: rule managers other than the runtime (a dashboard, a metrics
// exporter) listen to it instead of polling the source themselves.
type Property struct {
	// notify serialises updates with listener calls and registrations, so
	// every listener sees every value once and in order.
	notify sync.Mutex
	// mu guards value and set only, so Get from inside a listener does not
	// wait on notify.
	mu        sync.RWMutex
	value     rules.Set
	set       bool // value was given by Update at least once
	nextID    uint64
	listeners map[uint64]func(rules.Set)
	order     []uint64
}

// NewProperty returns a Property that holds no value yet.
func NewProperty() *Property {
	return &Property{listeners: map[uint64]func(rules.Set){}}
}

// Get returns the current value; the zero Set before the first Update.
func (p *Property) Get() rules.Set {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.value
}

// Update makes s the value and calls every listener with it, in registration
// order, before returning. It returns false and calls nobody when s equals
// the current value (rules.Set.Equal: positions and warnings ignored); the first
// Update always counts as a change, even to an empty Set.
func (p *Property) Update(s rules.Set) bool {
	p.notify.Lock()
	defer p.notify.Unlock()
	p.mu.Lock()
	if p.set && p.value.Equal(s) {
		p.mu.Unlock()
		return false
	}
	p.value, p.set = s, true
	p.mu.Unlock()
	for _, id := range p.order {
		if fn, ok := p.listeners[id]; ok {
			fn(s)
		}
	}
	return true
}

// Listen registers fn to receive each new value. When the property already
// holds a value fn is called with it at once, so a late listener starts in
// step. The returned function unregisters fn; it is safe to call more than
// once. fn must not call Update or an unregister function: calls to fn are
// serialised with updates, and those would wait for fn to return.
func (p *Property) Listen(fn func(rules.Set)) (unregister func()) {
	p.notify.Lock()
	defer p.notify.Unlock()
	p.nextID++
	id := p.nextID
	p.listeners[id] = fn
	p.order = append(p.order, id)
	p.mu.RLock()
	value, set := p.value, p.set
	p.mu.RUnlock()
	if set {
		fn(value)
	}
	return func() {
		p.notify.Lock()
		defer p.notify.Unlock()
		if _, ok := p.listeners[id]; !ok {
			return
		}
		delete(p.listeners, id)
		for i, x := range p.order {
			if x == id {
				p.order = append(p.order[:i:i], p.order[i+1:]...)
				break
			}
		}
	}
}
