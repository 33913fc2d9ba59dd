// Package leaparray is the sliding-window counter behind the runtime's
// statistics: Sentinel's LeapArray, rebuilt so that a bucket reset can never
// lose a concurrent increment.
//
// # Shape
//
// A Window covers IntervalMs milliseconds split into Buckets buckets of equal
// width. The buckets form a ring: time t belongs to window number t/width, and
// window number k lives in slot k mod R, where R is Buckets rounded up to a
// power of two (so finding a slot is a mask, not a division). A bucket is
// reused in place when time comes round to its slot again; no goroutine cleans
// anything up.
//
// Time is always passed in explicitly, in milliseconds on any monotonic scale
// (the runtime passes its Clock's reading divided by 1e6). The package never
// reads a clock itself, which keeps it exact under a manual clock in tests.
//
// # Why resets are exact
//
// Each counter of each bucket is a single 64-bit word holding both the window
// number it belongs to (upper 24 bits) and its count (lower 40 bits). A writer
// compare-and-swaps the whole word: when the tag names its own window it adds
// to the count, when the tag names an older window it replaces the word with
// its own tag and its own delta (that is the reset), and when the tag names a
// newer window the writer's timestamp is stale and the write is dropped (the
// window it belonged to has already rotated out). Because the reset and the
// increment are the same atomic operation on the same word, there is no moment
// in which a reset can overwrite an increment of the window it installs — the
// race that loses counts when a bucket's start time and its counters are
// separate words. A reader checks the tag of every word it sums, so a word of a
// window that has expired is never counted even before anyone resets it.
//
// # Stripes and pinned writes
//
// Every counter of a bucket is split into stripes: a shared stripe, and
// stripes owned by processors (P), up to 16, each on its own cache lines;
// reads sum the stripes. A writer pinned to its processor (the runtime
// mechanism sync.Pool relies on, reached through the runtime's internal
// package stripe) cannot be moved or preempted: no other goroutine can
// write that processor's stripe meanwhile, so Cursor.Add while pinned
// updates the tagged word with a plain load and store instead of a locked
// compare-and-swap. Unpinned writes, writes from processors with index 16
// or more, and writes from processors that have no stripe yet go to the
// shared stripe with compare-and-swap, so they never race with a plain
// store.
//
// Owned stripes are allocated lazily, where a window is used hard: a
// processor claims one as the window's first pinned writer, when its
// compare-and-swap on the shared stripe fails (contention), or when its
// write takes a shared word across a multiple of 128 (a busy window). So
// memory per window does not grow with GOMAXPROCS: an idle window holds
// the shared stripe only. A claim allocates once per processor and window,
// while pinned. Gauge is the same idea for a counter that goes up and
// down; a gauge made with Window.NewGauge gets its stripes with its
// window's.
//
// # Limit checks that stay on their own processor
//
// Reads sum every stripe, and the stripes of the current bucket are the lines
// the other processors keep writing, so a read per call costs a cache miss per
// other busy processor. Window.FitsPinned, the question a flow check asks
// ("does the count plus this call stay within the limit?"), avoids that on
// windows built with Config.Bounded: each processor caches the sum it last
// read, writers announce their growth every 64 counts, and the cached sum
// plus the most that unannounced growth can add decides whenever that is
// clearly within the limit (or the cached sum alone is already over it). Near
// the limit it sums the stripes. The answers are always those of the full
// sum; see the comment on boundStep for the bound and its proof.
//
// # Accuracy versus granularity
//
// A window only forgets in whole buckets, so a count over the interval can be
// off by up to one bucket's worth of traffic: at the moment a bucket expires
// the count drops by everything recorded in it at once. Narrow buckets track
// the real rate closely; wide ones smear bursts. Sentinel's default for the
// second-level window is 2 buckets of 500 ms, which is what NewSecond builds.
// For flow control prefer buckets of 250 ms or less (4 or more per second).
// Very coarse windows distort badly: an interval of 10 s in 2 buckets reported
// a steady 1000 QPS as about 600 in one published incident, because every read
// near a bucket boundary saw one full bucket plus a nearly empty one.
//
// # Borrowing from the next window
//
// Sentinel's OccupiableBucketLeapArray lets a prioritised caller that would be
// rejected now take capacity from a future window and wait for it. Windows
// created with a lookahead keep a separate small ring of "borrowed" counts,
// tagged by the future window number they belong to. Borrowed counts are
// included in Count once their window is current, and reported by Waiting
// while it is still ahead.
package leaparray
