// Package ticket makes the first Exit of an Entry and its copies the only
// one that counts.
//
// An Entry is a value, and a copy of it can be exited as well as the
// original. Each admitted call takes a ticket (Book.Take): a slot word that
// holds the ticket until the call's first Exit clears it. Later Exits of
// any copy find the word changed (zero, or a later call's ticket once the
// slot is reused) and do nothing.
//
// What it buys: a call is counted once however many copies of its Entry
// are exited, without a lock and, on the processor that took the ticket,
// without a locked instruction. Slots come in one block per processor,
// taken and cleared by that processor with plain stores while pinned (see
// package stripe).
//
// What it costs: a few loads and stores on the pass path and on the exit
// path, and memory for one block of Slots words per processor. A copy
// exited on another processor clears its slot with compare-and-swap, a
// locked instruction.
//
// The fallback is the shared block, taken and cleared with compare-and-swap:
// processors beyond the per-processor blocks and builds without pinning
// (-tags sentinel_nolinkname) use it. A call's slot is fixed by its
// sequence number; when that slot is still held (a call started Slots calls
// earlier on the same block is still running) Take skips to the next
// sequence numbers, up to Probes of them. Only when all of those slots are
// held too does the call get the zero ticket, and then only the Entry's own
// flag guards it.
//
// What is not covered: two copies of one Entry exited at the same instant
// on different processors may both count.
package ticket
