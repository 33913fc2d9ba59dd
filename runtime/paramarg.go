package runtime

// ParamArg is one argument of a call as hot-parameter rules see it: a typed
// key that generated code builds from the parameter's static type, without
// converting the value to an interface. Build it with StringArg, IntArg,
// UintArg, FloatArg or BoolArg.
//
// SCAFFOLD (lead, 2026-12-01): the param-flow helper replaces this file.
type ParamArg struct {
	kind uint8
	s    string
	n    uint64
}

// StringArg is the key of a string argument.
func StringArg(s string) ParamArg { return ParamArg{kind: 1, s: s} }

// IntArg is the key of a signed integer argument.
func IntArg(n int64) ParamArg { return ParamArg{kind: 2, n: uint64(n)} }
