package tokenserver

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/sentinelgen/sentinelgen/cluster/internal/tokenwire"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// maxParamValues bounds the values one bucket of a param budget counts
// (Sentinel's ClusterParamMetric capacity); a value past it is counted in
// place of one already there.
const maxParamValues = 4000

// paramKey is one parameter value as a budget counts it: every integer
// width is one integer, every float width one float, so that a Go client's
// int64 and a Java client's int of the same number share a budget.
type paramKey struct {
	kind byte // 's' string, 'i' integer, 'f' float, 'b' bool
	s    string
	n    uint64
}

// keyOf is p's key.
func keyOf(p tokenwire.Param) paramKey {
	switch p.Tag {
	case tokenwire.TagString:
		return paramKey{kind: 's', s: p.Str}
	case tokenwire.TagFloat64, tokenwire.TagFloat32:
		return paramKey{kind: 'f', n: math.Float64bits(p.Float)}
	case tokenwire.TagBool:
		if p.Bool {
			return paramKey{kind: 'b', n: 1}
		}
		return paramKey{kind: 'b'}
	}
	return paramKey{kind: 'i', n: uint64(p.Int)}
}

// itemKey is the key of a rule's item, read by its Java class type; false
// for a class no client sends (char).
func itemKey(it runtime.ParamFlowItem) (paramKey, bool) {
	class := strings.TrimPrefix(it.ClassType, "java.lang.")
	switch class {
	case "int", "Integer", "long", "Long", "short", "Short", "byte", "Byte":
		n, err := strconv.ParseInt(it.Object, 10, 64)
		return paramKey{kind: 'i', n: uint64(n)}, err == nil
	case "double", "Double", "float", "Float":
		f, err := strconv.ParseFloat(it.Object, 64)
		if class == "float" || class == "Float" {
			f = float64(float32(f))
		}
		return paramKey{kind: 'f', n: math.Float64bits(f)}, err == nil
	case "boolean", "Boolean":
		b, err := strconv.ParseBool(it.Object)
		if b {
			return paramKey{kind: 'b', n: 1}, err == nil
		}
		return paramKey{kind: 'b'}, err == nil
	case "String", "":
		return paramKey{kind: 's', s: it.Object}, true
	}
	return paramKey{}, false
}

// paramBucket is one slice of a param budget's window.
type paramBucket struct {
	startMs int64
	counts  map[paramKey]int64
}

// paramBudget is one hot-parameter rule in cluster mode: per value, the
// passes of its window against the value's threshold, as Sentinel's
// ClusterParamFlowChecker judges them.
type paramBudget struct {
	rule      runtime.ParamFlowRule
	namespace *namespace
	items     map[paramKey]float64

	mu                  sync.Mutex
	widthMs, intervalMs int64
	buckets             []paramBucket
}

func newParamBudget(r runtime.ParamFlowRule, ns *namespace) *paramBudget {
	interval := int64(DefaultIntervalMs)
	if ms := r.ClusterConfig.WindowIntervalMs; ms > 0 {
		interval = int64(ms)
	}
	b := &paramBudget{rule: r, namespace: ns, widthMs: interval / DefaultSampleCount, intervalMs: interval,
		buckets: make([]paramBucket, DefaultSampleCount)}
	for i := range b.buckets {
		b.buckets[i].startMs = -1
	}
	for _, it := range r.Items {
		if k, ok := itemKey(it); ok {
			if b.items == nil {
				b.items = map[paramKey]float64{}
			}
			b.items[k] = float64(it.Count)
		}
	}
	return b
}

// current returns the bucket of nowMs, reset when its slot held an older
// one; nil when the clock went back.
func (b *paramBudget) current(nowMs int64) *paramBucket {
	id := nowMs / b.widthMs
	bk := &b.buckets[id%int64(len(b.buckets))]
	start := id * b.widthMs
	switch {
	case bk.startMs == start:
	case bk.startMs < start:
		bk.startMs = start
		clear(bk.counts)
	default:
		return nil
	}
	if bk.counts == nil {
		bk.counts = map[paramKey]int64{}
	}
	return bk
}

// qps is k's passes per second over the interval ending at nowMs.
func (b *paramBudget) qps(nowMs int64, k paramKey) float64 {
	var sum int64
	for i := range b.buckets {
		bk := &b.buckets[i]
		if bk.startMs >= 0 && nowMs-bk.startMs <= b.intervalMs {
			sum += bk.counts[k]
		}
	}
	return float64(sum) / (float64(b.intervalMs) / 1000)
}

// acquire decides one PARAM_FLOW request: OK when every value stays within
// its threshold (the item's count, or the rule's; times the connected
// clients for AVG_LOCAL) with acquire more, counting acquire for each;
// BLOCKED otherwise. remaining is the last value's, -1 for several values.
func (b *paramBudget) acquire(nowMs int64, acquire int64, params []tokenwire.Param) (runtime.TokenStatus, int32) {
	connected := 1.0
	if b.rule.ClusterConfig.ThresholdType != runtime.Global {
		connected = float64(b.namespace.connected())
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.current(nowMs)
	remaining := -1.0
	for _, p := range params {
		k := keyOf(p)
		thr := b.rule.Count
		if c, ok := b.items[k]; ok {
			thr = c
		}
		remaining = thr*connected - b.qps(nowMs, k) - float64(acquire)
		if remaining < 0 {
			return runtime.TokenBlocked, 0
		}
	}
	if bk != nil {
		for _, p := range params {
			k := keyOf(p)
			if _, ok := bk.counts[k]; !ok && len(bk.counts) >= maxParamValues {
				for old := range bk.counts {
					delete(bk.counts, old)
					break
				}
			}
			bk.counts[k] += acquire
		}
	}
	if len(params) > 1 {
		return runtime.TokenOK, -1
	}
	return runtime.TokenOK, int32(remaining)
}
