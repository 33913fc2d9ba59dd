package runtime

// ParamFlowRule is Sentinel's ParamFlowRule (hot-parameter flow control): it
// limits calls per value of one argument of the call, so one hot value (a
// best-selling SKU) cannot take the budget of all the others.
//
// Defaults differ from FlowRule's where Sentinel's do: DurationInSec 0 means
// 1, and a cluster-mode rule does not fall back to local counting unless
// ClusterConfig.FallbackToLocalWhenFail is set (which validation requires:
// see ClusterMode).
type ParamFlowRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// Grade counts passed calls per value per DurationInSec (FlowGradeQPS,
	// the zero value) or calls in flight per value (FlowGradeConcurrency).
	Grade FlowGrade
	// ParamIdx selects the argument. It counts the method's parameters after
	// a leading context.Context, so Detail(ctx, sku string) has sku at 0, as
	// Java's detail(String sku) does. A negative index counts from the end
	// (-1 is the last parameter).
	ParamIdx int
	// Count is the threshold per value, unless an item names the value.
	Count float64
	// ControlBehavior is BehaviorReject (token bucket with BurstCount) or
	// BehaviorRateLimiter (calls of one value spaced 1000·DurationInSec/Count
	// ms apart, waiting up to MaxQueueingTimeMs). QPS grade only.
	ControlBehavior ControlBehavior
	// MaxQueueingTimeMs is how long the rate limiter lets a call wait.
	MaxQueueingTimeMs int
	// BurstCount is the extra tokens a value may spend at once beyond Count
	// (BehaviorReject).
	BurstCount int
	// DurationInSec is the length of the counting period (0 means 1).
	DurationInSec int
	// Items give particular values their own threshold.
	Items []ParamFlowItem
	// ClusterMode marks a rule of a cluster-wide budget per value: a token
	// service that implements ParamTokenService (a Sentinel token server's
	// client, cluster/tokenclient) decides it; while none can, the rule is
	// checked locally. It must set ClusterConfig.FallbackToLocalWhenFail:
	// without it, Sentinel's semantics would pass every call unchecked.
	ClusterMode bool
	// ClusterConfig configures cluster mode; it is ignored when ClusterMode
	// is false.
	ClusterConfig ClusterConfig
}

// ParamFlowItem is Sentinel's ParamFlowItem: a threshold of its own for one
// value of the argument.
type ParamFlowItem struct {
	// Object is the value, as text ("42", "sku-1", "true").
	Object string
	// ClassType is the Java type name Sentinel gives the value: "int",
	// "long", "String", "double", "float", "boolean", "byte", "short",
	// "char" (or their java.lang names). The value only matches an argument
	// of the corresponding Go kind; lint reports a mismatch.
	ClassType string
	// Count is the value's threshold.
	Count int
}
