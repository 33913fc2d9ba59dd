// Package hotkeys is the per-value table of hot-parameter rules: a bounded
// map from argument values to a fixed-size state, read without locks.
//
// Reads (Get) load an index pointer and walk one short chain with atomic
// loads: no mutex, no write to shared memory unless the node's reference bit
// must be set, and no allocation. Only inserting a value the table has not
// seen takes the table's mutex. The table holds at most its capacity; when
// full, an insert evicts a value chosen by CLOCK (second chance): a value
// read since the hand last passed it is spared once, so values in steady use
// stay while values seen once go first. An evicted value that comes back
// starts from a new node, i.e. with a full budget, as Sentinel's LRU maps do.
//
// Nodes are never reused: a reader that loaded a node just before it was
// evicted finishes on the evicted node, whose state nobody else reads any
// more, and the garbage collector frees it after the last such reader. That
// is what makes lock-free reads safe beside eviction.
package hotkeys
