package runtime

// SCAFFOLD: placeholder so annotate/gen can compile against the API while the
// runtime is built. The runtime work replaces this file entirely.

import (
	"context"
	"sync"
)

// Resource is the handle of one protected resource.
type Resource struct {
	name string
	cfg  resourceConfig
}

var registry sync.Map

// NewResource returns the resource named name, creating it on first use.
func NewResource(name string, opts ...ResourceOption) *Resource {
	if r, ok := registry.Load(name); ok {
		return r.(*Resource)
	}
	r := &Resource{name: name}
	for _, o := range opts {
		o(&r.cfg)
	}
	actual, _ := registry.LoadOrStore(name, r)
	return actual.(*Resource)
}

// Name returns the resource name.
func (r *Resource) Name() string { return r.name }

// EntryOption configures one Entry call.
type EntryOption struct{ prioritized bool }

// Entry is one admitted call.
type Entry struct{ r *Resource }

// Entry asks to run one call of the resource.
func (r *Resource) Entry(ctx context.Context, opts ...EntryOption) (Entry, *BlockError) {
	return Entry{r: r}, nil
}

// Exit ends the call.
func (e *Entry) Exit() {}

// TraceError records a business error.
func (e *Entry) TraceError(err error) {}
