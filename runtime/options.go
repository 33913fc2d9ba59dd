package runtime

// TrafficType says whether a resource receives traffic (an entrance, such as an
// HTTP handler) or sends it (a call to a dependency). Sentinel's EntryType.
type TrafficType uint8

const (
	// TrafficOutbound is the default: the resource calls something else.
	TrafficOutbound TrafficType = iota
	// TrafficInbound marks a resource where traffic enters the service.
	TrafficInbound
)

// ResourceType classifies a resource for metrics and adapters. It does not
// change how rules apply. The values follow Sentinel's ResourceTypeConstants.
type ResourceType uint8

const (
	ResourceTypeCommon  ResourceType = iota // ResourceTypeCommon is the default.
	ResourceTypeWeb                         // ResourceTypeWeb is an HTTP endpoint.
	ResourceTypeRPC                         // ResourceTypeRPC is an RPC method.
	ResourceTypeGateway                     // ResourceTypeGateway is an API gateway route.
	ResourceTypeDB                          // ResourceTypeDB is a database call.
	ResourceTypeCache                       // ResourceTypeCache is a cache call.
	ResourceTypeMQ                          // ResourceTypeMQ is a message-queue call.
)

// resourceConfig collects what ResourceOptions set.
type resourceConfig struct {
	traffic      TrafficType
	resourceType ResourceType
	paramNames   []string       // see WithParamNames
	paramKeys    []ParamKeyKind // see WithParamKeys; nil when not declared
}

// ResourceOption configures a resource when NewResource first creates it.
type ResourceOption func(*resourceConfig)

// WithTrafficType sets the resource's traffic type (default TrafficOutbound).
func WithTrafficType(t TrafficType) ResourceOption {
	return func(c *resourceConfig) { c.traffic = t }
}

// WithResourceType sets the resource's type (default ResourceTypeCommon).
func WithResourceType(t ResourceType) ResourceOption {
	return func(c *resourceConfig) { c.resourceType = t }
}

// WithParamNames declares the names of the guarded method's parameters
// after a leading context.Context, in order: names[i] is the parameter that
// ParamFlowRule.ParamIdx i selects. Generated code declares them so that a
// rule file may name a hot parameter instead of giving its index (see
// Resource.ParamNames).
func WithParamNames(names ...string) ResourceOption {
	names = append([]string(nil), names...)
	return func(c *resourceConfig) { c.paramNames = names }
}
