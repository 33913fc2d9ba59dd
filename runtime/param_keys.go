package runtime

import "sync"

// ParamKeyKind says what key a guarded method's parameter hands
// hot-parameter rules: the generator knows it from the parameter's Go type
// and declares it with WithParamKeys, so that rules which could never
// apply (an index past the parameters, a parameter that is no key) are
// refused when they are loaded instead of never blocking.
type ParamKeyKind uint8

const (
	// ParamNoKey is a parameter no rule can match (a struct, a map, a
	// pointer without a ParamFlowKey method, ...): its argument is the
	// zero ParamArg.
	ParamNoKey ParamKeyKind = iota
	// ParamKeyString is a string key: a string, or a type's ParamFlowKey().
	ParamKeyString
	// ParamKeyInt is a signed integer key.
	ParamKeyInt
	// ParamKeyUint is an unsigned integer key.
	ParamKeyUint
	// ParamKeyFloat is a float key.
	ParamKeyFloat
	// ParamKeyBool is a boolean key.
	ParamKeyBool
)

// String names the kind for messages.
func (k ParamKeyKind) String() string {
	switch k {
	case ParamKeyString:
		return "string"
	case ParamKeyInt:
		return "signed integer"
	case ParamKeyUint:
		return "unsigned integer"
	case ParamKeyFloat:
		return "float"
	case ParamKeyBool:
		return "bool"
	}
	return "cannot be a key"
}

// WithParamKeys declares the key kind of each of the guarded method's
// parameters after a leading context.Context, in ParamIdx order (the
// parameters WithParamNames names). An empty list declares a method
// without such parameters. Generated code declares them; a resource
// declared without them is not checked (see Resource.ParamKeys).
func WithParamKeys(kinds ...ParamKeyKind) ResourceOption {
	kinds = append([]ParamKeyKind{}, kinds...) // never nil: empty still declares
	return func(c *resourceConfig) { c.paramKeys = kinds }
}

// paramKeys holds the kinds WithParamKeys declared, per resource, beside
// the resources as paramNames does: they are read when rules load.
var paramKeys sync.Map // *Resource -> []ParamKeyKind

// declareParamKeys records kinds for r when the resource is declared.
func declareParamKeys(r *Resource, kinds []ParamKeyKind) {
	if kinds != nil {
		paramKeys.Store(r, kinds)
	}
}

// ParamKeys returns the key kinds the resource was declared with
// (WithParamKeys), in ParamIdx order, and whether any were declared: a
// resource declared with an empty list has no parameters rules can index.
// The slice is a copy.
func (r *Resource) ParamKeys() (kinds []ParamKeyKind, declared bool) {
	v, ok := paramKeys.Load(r)
	if !ok {
		return nil, false
	}
	return append([]ParamKeyKind{}, v.([]ParamKeyKind)...), true
}
