package transport

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/metrics"
)

// Java's metric command reads at most this many lines without endTime.
const (
	defaultMaxLines = 6000
	maxMaxLines     = 12000
)

// cmdMetric answers the metric command: one line per resource and completed
// second, timestamp|resource|pass|block|success|exception|rt|occupiedPass|
// concurrency|classification (Sentinel's MetricNode.toThinString), for the
// seconds with startTime <= timestamp <= endTime. Without endTime it lists
// up to maxLines lines from startTime on; identity keeps one resource.
// Seconds with no traffic are left out, as Sentinel's metric log leaves
// them out, and so are seconds the sampler could only read in part: the
// dashboard never fetches a second twice, and a short count would chart as
// a real dip.
func (s *Server) cmdMetric(p url.Values) (int, string) {
	startStr, endStr := strings.TrimSpace(p.Get("startTime")), strings.TrimSpace(p.Get("endTime"))
	if startStr == "" {
		return ok("")
	}
	start, err := strconv.ParseInt(startStr, 10, 64)
	if err != nil {
		return fail("invalid startTime: " + startStr)
	}
	end, limit := int64(math.MaxInt64), maxMaxLines
	if endStr != "" {
		if end, err = strconv.ParseInt(endStr, 10, 64); err != nil {
			return fail("invalid endTime: " + endStr)
		}
	} else {
		limit = defaultMaxLines
		if m := strings.TrimSpace(p.Get("maxLines")); m != "" {
			n, err := strconv.Atoi(m)
			if err != nil {
				return fail("invalid maxLines: " + m)
			}
			limit = min(n, maxMaxLines)
		}
	}
	identity := p.Get("identity")
	var b strings.Builder
	n := 0
	for _, l := range s.cfg.Sampler.Lines(start, end) {
		if l.Empty() || l.Partial || (identity != "" && l.Name != identity) {
			continue
		}
		if endStr == "" && n >= limit {
			break
		}
		writeThin(&b, l)
		n++
	}
	return ok(b.String())
}

// writeThin writes l as MetricNode.toThinString does, and a newline.
func writeThin(b *strings.Builder, l metrics.Line) {
	num := func(v int64) {
		b.WriteString(strconv.FormatInt(v, 10))
		b.WriteByte('|')
	}
	num(l.Time)
	b.WriteString(strings.ReplaceAll(l.Name, "|", "_"))
	b.WriteByte('|')
	num(l.Pass)
	num(l.Block)
	num(l.Success)
	num(l.Exception)
	num(l.AvgRTMs())
	num(l.OccupiedPass)
	num(l.Concurrency)
	b.WriteString(strconv.Itoa(int(l.Type)))
	b.WriteByte('\n')
}
