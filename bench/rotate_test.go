package bench

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/bench/internal/floor"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The rotating harness compares copies of a pass path in one process: every
// variant (the floor, this tree's runtime, and with -tags abcopy the copies
// of other commits that abcopy.sh extracted) runs in short slices, taking
// turns, each slice on one of several resources built at different memory
// placements. Load on the machine then slows every variant alike instead of
// whichever ran during a busy second, and the placement that happens to
// suit one copy's layout (which alone moves this path by 8-15%) is spread
// over all of them. Read the minima: on a loaded machine they are the
// figures closest to the code's own cost.

// placements is how many resources each variant gets, each allocated after
// a differently sized padding allocation.
const placements = 4

// sliceCalls is how many calls one slice makes: about 0.1 ms, short
// enough that load changes rarely split a round unevenly.
const sliceCalls = 2000

// variant is one copy of a pass path. pass and block return, for placement
// i, a function making n calls (admitted, or refused by the flow rule);
// block is nil for a variant without a block path.
type variant struct {
	name        string
	pass, block func(i int) func(n int)
}

// variants lists what the harness rotates through, the floor first; the
// abcopy build appends the copies from its generated files' init.
var variants = []variant{floorVariant(), sentinelgenVariant(), sentinelgenToVariant(), sentinelgenInPlaceVariant()}

// padding keeps the placement allocations alive, so the next allocation
// really lands elsewhere.
var padding [][]byte

// pad allocates a padding block for placement i: 0, 200, 400... bytes plus
// an odd number of words, so consecutive resources start on different
// offsets within their pages and cache lines.
func pad(i int) { padding = append(padding, make([]byte, 200*i+8*(2*i+1))) }

// rotateName is the resource name of placement i of a rotate benchmark.
func rotateName(kind string, i int) string { return fmt.Sprintf("rotate-%s-%d", kind, i) }

func floorVariant() variant {
	guards := make([]*floor.Guard, placements)
	for i := range guards {
		pad(i)
		guards[i] = floor.New(passQPS)
	}
	return variant{name: "floor", pass: func(i int) func(int) {
		g := guards[i]
		return func(n int) {
			for range n {
				if !g.Call() {
					panic("floor refused a call")
				}
			}
		}
	}}
}

// sentinelgenVariant is this tree's runtime; its resources get their rules
// with the peers' in loadSentinelgenRules (rules are loaded as a whole).
func sentinelgenVariant() variant {
	res := map[string][]*runtime.Resource{}
	for _, kind := range []string{"pass", "block"} {
		for i := range placements {
			pad(i)
			res[kind] = append(res[kind], runtime.NewResource(rotateName(kind, i)))
		}
	}
	return variant{
		name: "sentinelgen",
		pass: func(i int) func(int) {
			r := res["pass"][i]
			return func(n int) {
				ctx := context.Background()
				for range n {
					e, be := r.Entry(ctx)
					if be != nil {
						panic(be)
					}
					e.Exit()
				}
			}
		},
		block: func(i int) func(int) {
			r := res["block"][i]
			return func(n int) {
				ctx := context.Background()
				for range n {
					if _, be := r.Entry(ctx); be == nil {
						panic("not blocked")
					}
				}
			}
		},
	}
}

// sentinelgenToVariant is this tree's runtime called through EntryTo, which
// fills an Entry in place; it shares sentinelgenVariant's rules.
func sentinelgenToVariant() variant {
	var res []*runtime.Resource
	for i := range placements {
		pad(i + 1)
		res = append(res, runtime.NewResource(rotateName("pass", i)))
	}
	return variant{name: "sentinelgen-to", pass: func(i int) func(int) {
		r := res[i]
		return func(n int) {
			ctx := context.Background()
			var e runtime.Entry
			for range n {
				if be := r.EntryTo(&e, ctx); be != nil {
					panic(be)
				}
				e.Exit()
			}
		}
	}}
}

// sentinelgenInPlaceVariant is this tree's runtime called as generated
// wrappers call it: EntryTo into an Entry marked InPlace, which takes no
// exit ticket; it shares sentinelgenVariant's resources and rules. A block
// takes no ticket on either path, so the harness does not rotate its block.
func sentinelgenInPlaceVariant() variant {
	var res []*runtime.Resource
	for i := range placements {
		res = append(res, runtime.NewResource(rotateName("pass", i)))
	}
	return variant{name: "sentinelgen-inplace", pass: func(i int) func(int) {
		r := res[i]
		return func(n int) {
			ctx := context.Background()
			var e runtime.Entry
			for range n {
				if be := r.EntryTo(e.InPlace(), ctx); be != nil {
					panic(be)
				}
				e.Exit()
			}
		}
	}}
}

// BenchmarkRotatePass rotates the pass path of every variant. Per variant
// it reports the best slice (min-ns) and the median slice (med-ns) in ns per
// call, and both as a multiple of the floor's (x-floor-min, x-floor-med):
// the runtime's goal is x-floor-min at most 1.4. ns/op is this tree's
// median.
func BenchmarkRotatePass(b *testing.B) {
	rotate(b, func(v variant) func(int) func(int) { return v.pass })
}

// BenchmarkRotateBlock is BenchmarkRotatePass for a call the flow rule
// refuses (the floor has no block path).
func BenchmarkRotateBlock(b *testing.B) {
	rotate(b, func(v variant) func(int) func(int) { return v.block })
}

func rotate(b *testing.B, path func(variant) func(int) func(int)) {
	type runner struct {
		name   string
		loops  []func(int)
		slices []float64
	}
	var rs []*runner
	for _, v := range variants {
		if p := path(v); p != nil {
			r := &runner{name: v.name}
			for i := range placements {
				r.loops = append(r.loops, p(i))
				r.loops[i](sliceCalls) // warm: first writes, ticker start
			}
			rs = append(rs, r)
		}
	}
	b.ResetTimer()
	round := 0
	for b.Loop() {
		// Each round runs every variant on every placement once, starting
		// with a different variant each round.
		for k := range rs {
			r := rs[(round+k)%len(rs)]
			for _, loop := range r.loops {
				start := time.Now()
				loop(sliceCalls)
				r.slices = append(r.slices, float64(time.Since(start).Nanoseconds())/sliceCalls)
			}
		}
		round++
	}
	b.StopTimer()
	var floorMin, floorMed float64
	for _, r := range rs {
		slices.Sort(r.slices)
		lo, med := r.slices[0], r.slices[len(r.slices)/2]
		b.ReportMetric(lo, r.name+"-min-ns")
		b.ReportMetric(med, r.name+"-med-ns")
		switch {
		case r.name == "floor":
			floorMin, floorMed = lo, med
		case floorMin > 0:
			b.ReportMetric(lo/floorMin, r.name+"-x-floor-min")
			b.ReportMetric(med/floorMed, r.name+"-x-floor-med")
		}
		if r.name == "sentinelgen" {
			b.ReportMetric(med, "ns/op")
		}
	}
}
