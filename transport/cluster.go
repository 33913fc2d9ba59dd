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

// cmdGetClusterMode answers getClusterMode truthfully: mode -1 while no
// token service is installed (runtime.SetTokenService), else 0, a cluster
// client (a Go service asks a token service; it never serves tokens).
// clientAvailable says whether that client can answer now, when
// Config.ClusterAvailable tells; lastModified is when this command center
// first saw the service (-1 before). The dashboard's cluster page cannot
// change the mode: setClusterMode is not a command here, and the dashboard
// shows it as unsupported.
func (s *Server) cmdGetClusterMode(url.Values) (int, string) {
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
