//go:build race

package leaparray

import "sync/atomic"

// storeOwned is the race-detector build of storeOwned (see owned_store.go).
func storeOwned(p *atomic.Uint64, v uint64) { p.Store(v) }
