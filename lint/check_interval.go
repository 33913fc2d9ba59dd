package lint

import (
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// golangIntervalKey is sentinel-golang's name for a flow rule's interval.
const golangIntervalKey = "statIntervalInMs"

// checkGolangInterval reports flow rules that look migrated from
// sentinel-golang with an interval other than 1 s. Sentinel-golang compares
// threshold with the passes of statIntervalInMs; the runtime reads count per
// second whatever its statIntervalMs, so such a rule is
// statIntervalInMs/1000 times looser here. Java's flow rules have no
// interval at all, so in a Sentinel JSON document a flow rule's
// statIntervalMs (the name the reader suggests for statIntervalInMs) or a
// statIntervalInMs the reader ignored both point to sentinel-golang.
func checkGolangInterval(p *pass) {
	for i, r := range p.set.Flow {
		at := p.flowAt(i)
		if !strings.HasSuffix(at.File, ".json") || r.Grade != runtime.FlowGradeQPS {
			continue
		}
		n := r.StatIntervalMs
		if n == 0 || n == runtime.DefaultStatIntervalMs {
			continue
		}
		p.report(at, "set count to "+formatCount(r.Count*1000/float64(n))+" and statIntervalMs to 1000 if "+formatCount(r.Count)+" per "+strconv.Itoa(n)+" ms was meant",
			"%s has statIntervalMs %d in Sentinel JSON, which Java's flow rules do not have: if it came from sentinel-golang (statIntervalInMs), count %s was the limit per %d ms there and is per second here, %sx looser",
			flowRuleName(r), n, formatCount(r.Count), n, formatCount(float64(n)/1000))
	}
	for _, w := range p.set.Warnings {
		if w.Field != golangIntervalKey && !strings.HasSuffix(w.Field, "."+golangIntervalKey) {
			continue
		}
		p.report(w.Pos, "divide count by statIntervalInMs/1000 and drop statIntervalInMs",
			"statIntervalInMs is sentinel-golang's per-rule interval and is ignored here: the rule counts count per second; sentinel-golang counted its threshold per statIntervalInMs, so unless that was 1000 the limit changed")
	}
}
