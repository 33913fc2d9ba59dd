package runtime

import "github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock"

// Reading the statistics the pass path already keeps, for samplers that run
// beside it (package metrics): nothing here adds a write, a lock or a branch
// to Entry or Exit. A sampler reads each 500 ms bucket of a resource's
// second-level window once it has ended and before its slot is reused.

// StatBucketMs is the width of the buckets ReadStatBucket reads: the
// second-level window's 500 ms, so a second is two buckets.
const StatBucketMs = 500

// BucketStats is what one bucket of a resource's second-level window
// counted (call counts are multiplied by their acquire count).
type BucketStats struct {
	// Pass counts admitted calls, Block refused ones.
	Pass, Block int64
	// Success counts completed calls (failed ones included), Error the
	// completed calls with a traced error.
	Success, Error int64
	// RTSumMs is the sum of the completed calls' response times in ms.
	RTSumMs int64
	// OccupiedPass counts prioritized calls that borrowed this bucket's
	// capacity ahead of time (Sentinel's occupiedPass); they are not in Pass.
	OccupiedPass int64
}

// ReadStatBucket returns what the resource's second-level window counted in
// bucket id, the bucket covering Clock milliseconds [id·StatBucketMs,
// (id+1)·StatBucketMs). complete is false when the bucket's slot was already
// reused by a later bucket (the reader came too late): the counts are then
// short and should be marked, not trusted.
func (r *Resource) ReadStatBucket(id int64) (b BucketStats, complete bool) {
	var c [numEvents]int64
	complete = r.stats.second.ReadBucket(id, c[:])
	borrowed, ok := r.stats.second.BorrowedAtID(id)
	b = BucketStats{
		Pass: c[evPass], Block: c[evBlock], Success: c[evSuccess], Error: c[evError],
		RTSumMs: c[evRT], OccupiedPass: borrowed,
	}
	return b, complete && ok
}

// Concurrency is the number of the resource's calls in flight now.
func (r *Resource) Concurrency() int64 { return r.stats.inFlight.Load() }

// StatNowMs reads the Clock in force in milliseconds, the time base of
// ReadStatBucket's bucket ids. Unlike a call's reading it does not keep the
// default clock's ticker running: a sampler waking twice a second must not
// keep a 1 ms ticker alive in an otherwise idle process.
func StatNowMs() int64 {
	if c, ok := CurrentClock().(*coarseclock.Clock); ok {
		return c.Real() / 1e6
	}
	return CurrentClock().Nanotime() / 1e6
}

// CurrentTokenService returns the token service installed with
// SetTokenService, nil when none is: what a command center reports as the
// process's cluster mode.
func CurrentTokenService() TokenService {
	if b := activeTokenService.Load(); b != nil {
		return b.s
	}
	return nil
}
