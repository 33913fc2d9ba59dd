package runtime

// ThresholdType says how a cluster-mode flow rule's Count is read. Values are
// Sentinel's (ClusterRuleConstant.FLOW_THRESHOLD_*).
type ThresholdType int32

const (
	// AvgLocal reads Count as the budget of one instance: the cluster's
	// budget is Count times the number of live instances.
	AvgLocal ThresholdType = 0
	// Global reads Count as the budget of the whole cluster.
	Global ThresholdType = 1
)

// ClusterConfig is Sentinel's ClusterFlowConfig: how a flow rule in cluster
// mode asks the token service for its budget.
type ClusterConfig struct {
	// FlowID identifies the rule's budget in the token service; every
	// instance sharing a budget uses the same FlowID (required, > 0).
	FlowID int64
	// ThresholdType says whether Count is per cluster or per instance.
	ThresholdType ThresholdType
	// FallbackToLocalWhenFail applies the rule locally, as if ClusterMode
	// were off, while the token service cannot answer. When false, calls pass
	// unchecked while the service is unavailable (Sentinel's behaviour). The
	// rule file formats default it to true, as Sentinel does; the Go zero
	// value is false.
	FallbackToLocalWhenFail bool
	// WindowIntervalMs is the span of the cluster-wide statistic (0 means
	// DefaultStatIntervalMs). Count stays per second.
	WindowIntervalMs int
}
