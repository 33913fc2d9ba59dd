package transport

import (
	"crypto/rand"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Names Sentinel gives the tree's root and the context every call of a Go
// service runs in.
const (
	rootName           = "machine-root"
	defaultContextName = "sentinel_default_context"
)

// nodeVo is sentinel-transport-common's NodeVo. Field names and types are
// Java's; fastjson leaves out null fields, hence the pointers.
type nodeVo struct {
	ID                 *string `json:"id,omitempty"`
	ParentID           *string `json:"parentId,omitempty"`
	Resource           string  `json:"resource"`
	ThreadNum          int64   `json:"threadNum"`
	PassQPS            int64   `json:"passQps"`
	BlockQPS           int64   `json:"blockQps"`
	TotalQPS           int64   `json:"totalQps"`
	AverageRT          int64   `json:"averageRt"`
	SuccessQPS         int64   `json:"successQps"`
	ExceptionQPS       int64   `json:"exceptionQps"`
	OneMinutePass      int64   `json:"oneMinutePass"`
	OneMinuteBlock     int64   `json:"oneMinuteBlock"`
	OneMinuteException int64   `json:"oneMinuteException"`
	OneMinuteTotal     int64   `json:"oneMinuteTotal"`
	Timestamp          int64   `json:"timestamp"`
}

// resourceNodes builds a NodeVo per sampled resource. The per-second fields
// are the runtime's second-level window ending now (Java reads its 1 s
// sliding window the same way), the one-minute fields the sampler's last 60
// completed seconds (Java's minute window).
func (s *Server) resourceNodes() []nodeVo {
	now := time.Now().UnixMilli()
	stats := s.cfg.Sampler.Stats()
	byName := map[string]metrics.Stat{}
	for _, st := range stats {
		byName[st.Name] = st
	}
	var out []nodeVo
	for _, r := range runtime.Resources() {
		snap := r.Snapshot()
		st := byName[r.Name()]
		vo := nodeVo{
			Resource: r.Name(), ThreadNum: snap.Concurrency,
			PassQPS: snap.Pass, BlockQPS: snap.Block, TotalQPS: snap.Pass + snap.Block,
			AverageRT: int64(snap.AvgRTMs), SuccessQPS: snap.Success, ExceptionQPS: snap.Error,
			OneMinutePass: st.Minute.Pass, OneMinuteBlock: st.Minute.Block,
			OneMinuteException: st.Minute.Exception, OneMinuteTotal: st.Minute.Pass + st.Minute.Block,
			Timestamp: now,
		}
		out = append(out, vo)
	}
	return out
}

// cmdClusterNode answers clusterNode: one NodeVo per resource, without id
// and parentId; type=notZero keeps those with requests in the last minute.
func (s *Server) cmdClusterNode(p url.Values) (int, string) {
	nodes := s.resourceNodes()
	if strings.EqualFold(p.Get("type"), "notZero") {
		kept := nodes[:0]
		for _, n := range nodes {
			if n.OneMinuteTotal > 0 {
				kept = append(kept, n)
			}
		}
		nodes = kept
	}
	if nodes == nil {
		nodes = []nodeVo{}
	}
	return okJSON(nodes)
}

// cmdJSONTree answers jsonTree: the tree in preorder, machine-root first,
// then the one context a Go service's calls run in, then its resources.
// Parents sum their children, as Sentinel's entrance nodes do.
func (s *Server) cmdJSONTree(url.Values) (int, string) {
	res := s.resourceNodes()
	root, ctx := sumNodes(rootName, res), sumNodes(defaultContextName, res)
	rootID, ctxID := newUUID(), newUUID()
	root.ID = &rootID
	ctx.ID, ctx.ParentID = &ctxID, &rootID
	out := []nodeVo{root, ctx}
	for _, n := range res {
		id := newUUID()
		n.ID, n.ParentID = &id, &ctxID
		out = append(out, n)
	}
	return okJSON(out)
}

func sumNodes(name string, children []nodeVo) nodeVo {
	v := nodeVo{Resource: name, Timestamp: time.Now().UnixMilli()}
	var rtWeighted int64
	for _, c := range children {
		v.ThreadNum += c.ThreadNum
		v.PassQPS += c.PassQPS
		v.BlockQPS += c.BlockQPS
		v.TotalQPS += c.TotalQPS
		v.SuccessQPS += c.SuccessQPS
		v.ExceptionQPS += c.ExceptionQPS
		v.OneMinutePass += c.OneMinutePass
		v.OneMinuteBlock += c.OneMinuteBlock
		v.OneMinuteException += c.OneMinuteException
		v.OneMinuteTotal += c.OneMinuteTotal
		rtWeighted += c.AverageRT * c.SuccessQPS
	}
	if v.SuccessQPS > 0 {
		v.AverageRT = rtWeighted / v.SuccessQPS
	}
	return v
}

// newUUID is a random (version 4) UUID, as Java's UUID.randomUUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
