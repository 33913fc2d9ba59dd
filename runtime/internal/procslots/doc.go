// Package procslots is a table of pointers with one slot per processor,
// for per-processor data that most owners never have: it takes one word
// until a slot is first set, and then a separate array of the slots.
//
// What it buys: every statistics window and in-flight gauge of the
// runtime keeps a slot per processor for the stripe that processor owns
// (see leaparray), and nearly all of them stay nil, because most windows
// are never written hard enough to get a stripe. A flat array of Len
// pointers took 128 bytes in each window and each gauge, three of them
// per resource with a flow rule and a breaker; a Table takes 8 until a
// processor stores its slot.
//
// What it costs: reading a slot is two dependent loads instead of one
// (the array's address, then the slot), and the first store allocates
// the array, which then takes its 128 bytes beside the table. An empty
// table reads its slots from one array shared by every empty table, all
// nil: that is the state of nearly every window, and the tests exercise
// it beside a table's own array.
package procslots
