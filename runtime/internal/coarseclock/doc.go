// Package coarseclock is the runtime's default clock: the real monotonic
// clock read through a cache.
//
// What it buys: a guarded call reads the time twice, and a real monotonic
// reading costs more, on common virtual machines, than the rest of an
// Entry/Exit pair. While calls flow, a ticker goroutine refreshes a cached
// reading every tick and readers load that word instead (Clock.Cached
// inlines into the caller).
//
// What it costs: readings have the tick's precision (a millisecond in the
// runtime, the precision Sentinel keeps for response times); a goroutine
// wakes every tick while calls flow (the ticker starts on the first read
// and stops after an idle period with no reads, so an idle process has no
// background wake-ups, and the first read after a pause is a real one);
// and the callers pay for the audits below.
//
// A starved ticker (a busy CPU, GOMAXPROCS=1 with a goroutine that does not
// yield) would leave the cache behind real time for as long as the
// scheduler keeps it waiting, and calls at a QPS limit would be judged in a
// window already over. Two safeguards bound that. The callers audit the
// cache (Clock.Audit) once every AuditEvery recordings on each processor,
// timed by per-processor counts (Audits), moving the cache to a real
// reading; and the ticker checks how late it woke. An audit finding the
// cache more than LateLimit ticks behind, or a late tick finding that no
// audit has refreshed the cache within the last tick either, turns the
// clock to its lagging mode, the fallback, in which every read is a real
// one, until recoverTicks ticks in a row have come on time or found the
// cache refreshed by an audit within a tick (more after relapses, see
// tickerTicks.need). So a call sees a time at most LateLimit ticks old,
// except for at most AuditEvery calls per processor each time the cache
// falls behind, which after the first time happens at most once per
// recoverTicks·2ⁿ ticks on the n-th relapse.
//
// Why audits count as on time: when every processor is busy with guarded
// calls (a saturated server, a parallel benchmark), the ticker runs only
// when the scheduler preempts a caller and always wakes late; but the
// callers' audits keep the cache close to real time. Judged by the
// ticker's punctuality alone, such a clock would be lagging for as long as
// the load lasted, and every call would pay two real readings where the
// cache serves as well. For the same reason a lagging clock turns back to
// the cache by its callers' audits too, without waiting for the ticker's
// rare ticks: recoverAudits audits in a row, each within a tick of the one
// before. When the calls thin out the audits stop, and the next late tick
// or audit finds the cache stale.
package coarseclock
