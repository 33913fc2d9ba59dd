// Package floor is the pass path of one guarded call with no API boundary:
// the same clock, the same second-level window with its cached bound, the
// same in-flight gauge and the same slow-ratio breaker arithmetic as the
// runtime's Entry and Exit for one QPS rule and one breaker, written as one
// straight loop body over plain fields. It is what the runtime's pass path
// would cost if the API (the Entry value, the rule-set lookups, the exit
// ticket, the calls between layers) were free, so the ratio of the two is
// what the API costs. It mirrors the runtime's data layout (tagged 64-bit
// words, 500 ms buckets, cache-line stripes per processor); it is not used
// to guard anything.
package floor
