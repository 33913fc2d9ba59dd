package runtime

import "sync"

// paramNames holds the names WithParamNames declared, per resource. Few
// resources have them, and they are read when rules load, not per call, so
// they live beside the resources rather than in each one.
var paramNames sync.Map // *Resource -> []string

// declareParamNames records names for r when the resource is declared.
func declareParamNames(r *Resource, names []string) {
	if len(names) != 0 {
		paramNames.Store(r, names)
	}
}

// ParamNames returns the parameter names the resource was declared with
// (WithParamNames), in ParamIdx order, or nil when none were declared. The
// slice is a copy.
func (r *Resource) ParamNames() []string {
	v, ok := paramNames.Load(r)
	if !ok {
		return nil
	}
	return append([]string(nil), v.([]string)...)
}

// ParamIndex returns the ParamIdx of the parameter called name, from the
// names the resource was declared with, and whether there is one.
func (r *Resource) ParamIndex(name string) (int, bool) {
	v, ok := paramNames.Load(r)
	if !ok {
		return 0, false
	}
	for i, n := range v.([]string) {
		if n == name {
			return i, true
		}
	}
	return 0, false
}
