// Package runtime is what guarded calls run through: Sentinel's flow control
// and circuit breaking (1.8 semantics), built so that an admitted or a
// blocked call costs no allocation, no lock and no reflection.
//
// # From Entry to Exit
//
// A Resource is created once per name by NewResource and kept by the caller.
// It points at its statistics (a sliding window of pass, block, success,
// error and response-time counts plus a striped in-flight gauge, see
// package leaparray) and at the rule set currently in force for it, an
// immutable value that rule loads replace with one atomic store.
//
// Resource.Entry loads the rule set, reads the Clock once, and runs the
// checks in Sentinel's slot order: authority rules (origin white and black
// lists), system protection (inbound resources), hot-parameter rules (with
// EntryArgsTo), then the flow rules in Sentinel's order: rules for some
// callers before those for every caller, cluster-mode rules last (QPS or
// concurrency; reject, warm-up, rate limiter or both; direct, relate or chain
// strategy), then the circuit breakers. The first check that says no wins:
// Entry records a block and returns that rule's *BlockError, made when the
// rules were loaded and shared by every call it blocks. When every check
// passes, Entry records the pass and the call in flight and returns an Entry
// value that remembers the start time and the rule set that admitted it.
//
// The caller runs its code, reports a business error with Entry.TraceError
// and calls Entry.Exit once. Exit reads the Clock a second time, records
// success, error and response time, and hands the outcome to each breaker of
// the admitting rule set, which may open (CLOSED to OPEN), or, for the one
// probe a HALF_OPEN breaker let through, close or re-open it.
//
// # Time
//
// All time comes from the Clock in force (SetClock); waits go through it too.
// The default clock caches a monotonic reading refreshed every millisecond by
// a ticker that runs only while calls flow, so response times have
// millisecond precision, as in Sentinel. The cache cannot go stale unseen:
// the runtime compares it with a real reading every 64 passes and every 64
// blocks on each processor, moving it forward, and the ticker checks how
// late it woke; a cache more than 4 ms behind turns every read into a real
// one until the cache is kept fresh again, by the ticker on time or, while
// every processor is busy with calls and the ticker cannot run, by those
// comparisons. Tests install a ManualClock.
//
// # Rules
//
// LoadRules (every kind at once) and the per-kind loaders validate
// everything before changing anything; an invalid rule leaves the rules in force untouched and
// the error names each bad rule by index, resource and field. Rules may name
// resources that do not exist yet: they take effect when NewResource creates
// them. A breaker or flow check whose rule is unchanged by a reload keeps its
// state. OnFlowRulesChange, OnDegradeRulesChange, the listeners of the other
// kinds and OnBreakerStateChange let other packages observe changes.
//
// # Statistics, pinning and platforms
//
// Counters are striped per processor and written pinned to it, with plain
// stores instead of locked instructions. Pinning goes through the Go
// runtime's internal procPin, linked by go:linkname; the runtime keeps that
// name linkable for existing users but does not support it. Build with
// -tags sentinel_nolinkname to do without it: every counter write then
// uses compare-and-swap on one shared stripe, with the same results and a
// higher cost per call, most under contention. Plain stores are used only
// on 64-bit platforms; on 32-bit ones (386, arm) and under the race
// detector the single-writer stores are atomic, since a 64-bit plain store
// there is two stores a reader could see half done.
//
// # Speed mechanisms
//
// The work that keeps a pass and a block free of locks and allocations sits
// in small packages of its own, each with a plain API, its tests and a
// fallback; this package orchestrates them from Entry to Exit (enter.go,
// exit.go, record.go, clock.go).
//
// Stripes (github.com/sentinelgen/sentinelgen/runtime/internal/stripe) pin
// a goroutine to its processor so that counters are written per processor
// with plain stores, without a locked instruction. It costs a pinned
// section per call and relies on the Go runtime's procPin; without it
// (sentinel_nolinkname) every write is a compare-and-swap on a shared
// stripe.
//
// Windows ([github.com/sentinelgen/sentinelgen/runtime/leaparray]) count
// passes, blocks, successes, errors and response times in buckets whose
// resets never lose a concurrent increment. A direct QPS rule is decided
// against a per-processor bound of the window's remaining room, so most
// checks read no other processor's lines; processors get stripes of their
// own lazily, only where a window is used hard. The costs are a tagged word
// per counter, memory per striped window, and reads that sum the stripes.
//
// Processor slots
// (github.com/sentinelgen/sentinelgen/runtime/internal/procslots) hold a
// window's and a gauge's per-processor stripes in one word until a
// processor claims a stripe, rather than a pointer per processor that
// nearly every window leaves nil: three of those arrays were a fifth of a
// resource with a flow rule and a breaker. Reading a slot costs one more
// dependent load; a window that never got a stripe reads the slots of one
// array shared by every such window.
//
// Argument views and hot keys
// (github.com/sentinelgen/sentinelgen/runtime/internal/argview and
// .../internal/hotkeys) let hot-parameter rules look at a call's arguments
// without copying them and keep per-value state in a bounded table read
// without locks. Views use unsafe (sentinel_purego copies instead); the
// table takes a mutex only to insert a value it has not seen.
//
// Exit tickets (github.com/sentinelgen/sentinelgen/runtime/internal/ticket)
// make the first Exit of an Entry or of any copy of it the only one that
// counts, with plain stores on the processor that took the ticket. They
// cost a few stores per pass and per Exit and a block of slot words per
// processor; an Entry entered in place (Entry.InPlace) takes none.
//
// The cached clock
// (github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock) spares
// each call two real monotonic readings: a ticker refreshes a cached
// reading while calls flow, callers audit it every so many recordings per
// processor, and a cache found too far behind turns every read real until
// it is kept fresh again. It costs millisecond precision, a ticker
// goroutine while calls flow, and the audits.
//
// Block tallies (github.com/sentinelgen/sentinelgen/runtime/internal/tally)
// count a BlockError's blocks per processor, each count on its own cache
// line, once its resource is blocked on several processors at a time, so
// that an overload spread over cores does not serialise on one counter.
// They cost a cache line per processor for each contended error, and a
// read of Blocked sums them.
//
// System statistics
// (github.com/sentinelgen/sentinelgen/runtime/internal/sysstat) read the
// load average and the process's CPU usage for system protection in a
// sampler goroutine, off the call path, which reads the latest sample. The
// sampler runs only while system rules are loaded; readings exist on Linux
// only.
package runtime
