// Package tally counts events per processor without a write every core
// shares: the runtime counts the blocks of a BlockError with it once the
// error's resource is blocked on several processors at a time.
//
// What it buys: an atomic add on one word, from several cores at once, is
// a locked write to one cache line that every core waits for, and blocks
// are most frequent exactly when an overload is spread over cores. A Tally
// is a count per processor, each on a cache line of its own, written by
// the pinned caller with a plain store (see package stripe), so concurrent
// counting costs no more than counting from one processor.
//
// What it costs: a cache line per processor (a power of two of them, at
// least two, at most MaxCells) for each tally made, and a read that sums
// every cell. So the runtime makes a tally only on contention, and an
// error blocked from one processor at a time never gets one.
//
// The fallback is the caller's own shared count: Add reports false for a
// processor without a cell (a higher index than the tally has, or every
// caller in a build without pinning, which pins to stripe.Shared), and the
// caller then counts with an atomic add.
package tally
