package transport

import (
	"net/url"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel's cluster modes (ClusterStateManager).
const (
	clusterNotStarted = -1
	clusterClient     = 0
)

// cmdGetClusterMode answers getClusterMode: Config.Cluster's state when
// it is set. Otherwise it answers truthfully from the runtime: mode -1 while
// no token service is installed (runtime.SetTokenService), else 0, a
// cluster client; clientAvailable says whether that client can answer now,
// when Config.ClusterAvailable tells; lastModified is when this command
// center first saw the service (-1 before). Without Config.Cluster the
// dashboard's cluster page cannot change the mode: the cluster commands
// are unknown, which the dashboard shows as unsupported.
func (s *Server) cmdGetClusterMode(url.Values) (int, string) {
	if s.cfg.Cluster != nil {
		return okJSON(s.cfg.Cluster.State())
	}
	svc := runtime.CurrentTokenService()
	s.clusterMu.Lock()
	switch {
	case svc == nil:
		s.clusterSeen = 0
	case s.clusterSeen == 0:
		s.clusterSeen = time.Now().UnixMilli()
	}
	seen := s.clusterSeen
	s.clusterMu.Unlock()
	mode, available, last := clusterNotStarted, false, int64(-1)
	if svc != nil {
		mode, available, last = clusterClient, true, seen
		if s.cfg.ClusterAvailable != nil {
			available = s.cfg.ClusterAvailable()
		}
	}
	return okJSON(map[string]any{"mode": mode, "lastModified": last, "clientAvailable": available, "serverAvailable": false})
}
