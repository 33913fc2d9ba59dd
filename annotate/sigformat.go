package annotate

import (
	"go/types"
	"strings"
)

// param is one parameter as a signature message shows it.
type param struct {
	name string // "" when the signature's parameters are unnamed
	typ  string
}

// formatFunc renders "func(a A, b B) (R, error)" from already formatted
// parameters and a result tuple. Go does not allow mixing named and unnamed
// parameters, so names are shown only when all parameters have one.
func formatFunc(params []param, results *types.Tuple, qf types.Qualifier) string {
	var b strings.Builder
	b.WriteString("func(")
	named := true
	for _, p := range params {
		if p.name == "" {
			named = false
		}
	}
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		if named {
			b.WriteString(p.name)
			b.WriteByte(' ')
		}
		b.WriteString(p.typ)
	}
	b.WriteByte(')')
	b.WriteString(formatResults(results, qf))
	return b.String()
}

// formatResults renders a result list the way gofmt writes it, with a
// leading space, or "" for no results.
func formatResults(results *types.Tuple, qf types.Qualifier) string {
	if results == nil || results.Len() == 0 {
		return ""
	}
	if results.Len() == 1 && results.At(0).Name() == "" {
		return " " + types.TypeString(results.At(0).Type(), qf)
	}
	return " " + types.TypeString(results, qf)
}

// tupleParams converts a parameter tuple. For a variadic signature the last
// parameter, a slice in go/types, is shown as ...T as it was written.
func tupleParams(t *types.Tuple, variadic bool, qf types.Qualifier) []param {
	ps := make([]param, 0, t.Len())
	for i := range t.Len() {
		v := t.At(i)
		s := types.TypeString(v.Type(), qf)
		if variadic && i == t.Len()-1 {
			if sl, ok := v.Type().(*types.Slice); ok {
				s = "..." + types.TypeString(sl.Elem(), qf)
			}
		}
		ps = append(ps, param{name: v.Name(), typ: s})
	}
	return ps
}

// formatSignature renders a handler's declared signature, with its type
// parameter list for a generic function.
func formatSignature(sig *types.Signature, qf types.Qualifier) string {
	s := formatFunc(tupleParams(sig.Params(), sig.Variadic(), qf), sig.Results(), qf)
	if tps := sig.TypeParams(); tps != nil && tps.Len() > 0 {
		var b strings.Builder
		b.WriteString("func[")
		for i := range tps.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			tp := tps.At(i)
			b.WriteString(tp.Obj().Name())
			b.WriteByte(' ')
			b.WriteString(types.TypeString(tp.Constraint(), qf))
		}
		b.WriteByte(']')
		s = b.String() + strings.TrimPrefix(s, "func")
	}
	return s
}
