package tokenwire

import "github.com/sentinelgen/sentinelgen/runtime"

// FromValue is v as a Go client sends it: integers as Java longs (an
// unsigned value above the int64 range wraps, as Java has no unsigned
// long), floats as doubles, as a Java service sends its long and double
// arguments.
func FromValue(v runtime.ParamValue) Param {
	switch v.Kind {
	case runtime.ParamKeyString:
		return Param{Tag: TagString, Str: v.Str}
	case runtime.ParamKeyInt:
		return Param{Tag: TagInt64, Int: v.Int}
	case runtime.ParamKeyUint:
		return Param{Tag: TagInt64, Int: int64(v.Uint)}
	case runtime.ParamKeyFloat:
		return Param{Tag: TagFloat64, Float: v.Float}
	case runtime.ParamKeyBool:
		return Param{Tag: TagBool, Bool: v.Bool}
	}
	return Param{Tag: TagString}
}
