package transport

// ClusterControl is what the dashboard's cluster flow control page (集群流控)
// drives through the cluster commands: whether the service is a client of a
// token server or a token server itself, and their settings. Set
// Config.Cluster to one (package cluster/assign provides it) to let the
// dashboard assign the service; without it getClusterMode reports the token
// service installed in the runtime, and the other cluster commands are
// unknown, which the dashboard shows as unsupported.
//
// The JSON of every type below is what Sentinel's dashboard reads and sends.
type ClusterControl interface {
	// State is the service's mode and what is available.
	State() ClusterState
	// SetMode makes the service a token client (ClusterModeClient) or a
	// token server (ClusterModeServer).
	SetMode(mode int) error
	// ClientConfig is the token client's settings.
	ClientConfig() ClusterClientConfig
	// SetClientConfig points the token client at a server.
	SetClientConfig(ClusterClientConfig) error
	// ServerConfig is the token server's settings.
	ServerConfig() ClusterServerConfig
	// ServerInfo is the token server's settings and its clients.
	ServerInfo() ClusterServerInfo
	// SetServerTransport moves the token server to port, closing
	// connections silent for idleSeconds.
	SetServerTransport(port, idleSeconds int) error
	// SetServerNamespaces sets the namespaces the token server serves.
	SetServerNamespaces([]string) error
	// SetServerFlow sets how the token server judges budgets.
	SetServerFlow(ClusterFlowConfig) error
	// ServerMetrics are the statistics of the budgets of namespace.
	ServerMetrics(namespace string) []ClusterFlowMetric
}

// Cluster modes (Sentinel's ClusterStateManager).
const (
	ClusterModeNotStarted = -1
	ClusterModeClient     = 0
	ClusterModeServer     = 1
)

// ClusterState is getClusterMode's answer.
type ClusterState struct {
	Mode            int   `json:"mode"`
	LastModified    int64 `json:"lastModified"`
	ClientAvailable bool  `json:"clientAvailable"`
	ServerAvailable bool  `json:"serverAvailable"`
}

// ClusterClientConfig is a token client's settings
// (cluster/client/fetchConfig, cluster/client/modifyConfig).
type ClusterClientConfig struct {
	ServerHost     string `json:"serverHost"`
	ServerPort     int    `json:"serverPort"`
	RequestTimeout int    `json:"requestTimeout"` // milliseconds
	// ClientState is 0 while the client is off, 2 while it runs (Sentinel's
	// ClientConstants); the dashboard does not send it.
	ClientState int `json:"clientState"`
}

// ClusterTransportConfig is where a token server listens.
type ClusterTransportConfig struct {
	Port        int `json:"port"`
	IdleSeconds int `json:"idleSeconds"`
}

// ClusterFlowConfig is how a token server judges budgets (Sentinel's
// ServerFlowConfig).
type ClusterFlowConfig struct {
	ExceedCount    float64 `json:"exceedCount"`
	MaxOccupyRatio float64 `json:"maxOccupyRatio"`
	IntervalMs     int     `json:"intervalMs"`
	SampleCount    int     `json:"sampleCount"`
	MaxAllowedQps  float64 `json:"maxAllowedQps"`
}

// ClusterServerConfig is cluster/server/fetchConfig's answer.
type ClusterServerConfig struct {
	Transport    ClusterTransportConfig `json:"transport"`
	Flow         ClusterFlowConfig      `json:"flow"`
	NamespaceSet []string               `json:"namespaceSet"`
}

// ClusterConnection is one client connected to a token server.
type ClusterConnection struct {
	Address string `json:"address"` // ip:port
	Host    string `json:"host"`    // ip
}

// ClusterConnectionGroup is the clients connected in one namespace.
type ClusterConnectionGroup struct {
	Namespace      string              `json:"namespace"`
	ConnectionSet  []ClusterConnection `json:"connectionSet"`
	ConnectedCount int                 `json:"connectedCount"`
}

// ClusterRequestLimit is one namespace's token requests per second and
// their cap.
type ClusterRequestLimit struct {
	Namespace     string  `json:"namespace"`
	CurrentQps    float64 `json:"currentQps"`
	MaxAllowedQps float64 `json:"maxAllowedQps"`
}

// ClusterServerInfo is cluster/server/info's answer.
type ClusterServerInfo struct {
	Port             int                      `json:"port"`
	Connection       []ClusterConnectionGroup `json:"connection"`
	RequestLimitData []ClusterRequestLimit    `json:"requestLimitData"`
	Transport        ClusterTransportConfig   `json:"transport"`
	Flow             ClusterFlowConfig        `json:"flow"`
	NamespaceSet     []string                 `json:"namespaceSet"`
	Embedded         bool                     `json:"embedded"`
	AppName          string                   `json:"appName"`
}

// ClusterFlowMetric is one budget's statistics on a token server
// (cluster/server/metricList).
type ClusterFlowMetric struct {
	Timestamp    int64   `json:"timestamp"`
	ResourceName string  `json:"resourceName"`
	FlowID       int64   `json:"flowId"`
	PassQps      float64 `json:"passQps"`
	BlockQps     float64 `json:"blockQps"`
	Rt           float64 `json:"rt"`
}
