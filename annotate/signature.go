package annotate

import (
	"go/types"
	"strings"
)

// checkHandlerSignature compares the handler's signature with the one its
// role requires and reports the difference in Go syntax.
func (c *checker) checkHandlerSignature(role HandlerRole, h *Handler, site handlerSite) bool {
	sig := h.Type
	generic := sig.TypeParams() != nil && sig.TypeParams().Len() > 0
	if generic {
		inst, ok := c.instantiateHandler(sig, site)
		if !ok {
			c.reportSignature(role, h, site, "")
			return false
		}
		sig = inst
	}
	var base []Var
	if role != RoleDefaultFallback {
		base = site.fn.Params
	}
	params := sig.Params()
	n := len(base)
	ok := !sig.Variadic() && sameResults(sig.Results(), site.sig.Results())
	switch {
	case params.Len() == n+1:
		last := params.At(n).Type()
		if role == RoleBlockHandler {
			ok = ok && isBlockError(last)
		} else {
			ok = ok && types.Identical(last, errorType)
		}
	case params.Len() == n:
		ok = ok && role != RoleBlockHandler
	default:
		ok = false
	}
	for i := 0; ok && i < n; i++ {
		ok = types.Identical(params.At(i).Type(), base[i].Type)
	}
	if !ok {
		hint := ""
		if sig.Variadic() {
			hint = "; a handler may not be variadic"
			if site.fn.Variadic {
				hint += ": it takes the variadic parameter as a slice"
			}
		}
		c.reportSignature(role, h, site, hint)
		return false
	}
	h.TakesError = params.Len() == n+1
	if generic {
		h.Type = sig
	}
	return true
}

// instantiateHandler instantiates a generic handler with the annotated
// function's own type parameters, which is how gen calls it. Only a generic
// function's handlers may be generic, with the same number of parameters.
func (c *checker) instantiateHandler(sig *types.Signature, site handlerSite) (*types.Signature, bool) {
	tps := site.sig.TypeParams()
	if tps == nil || tps.Len() != sig.TypeParams().Len() {
		return nil, false
	}
	targs := make([]types.Type, tps.Len())
	for i := range tps.Len() {
		targs[i] = tps.At(i)
	}
	inst, err := types.Instantiate(nil, sig, targs, true)
	if err != nil {
		return nil, false
	}
	return inst.(*types.Signature), true
}

// reportSignature reports a handler whose signature is wrong, spelling out
// the wanted one (with the annotated function's parameter names) and the
// one found.
func (c *checker) reportSignature(role HandlerRole, h *Handler, site handlerSite, hint string) {
	qf := c.qualifier
	var want []param
	if role != RoleDefaultFallback {
		for _, p := range site.fn.Params {
			want = append(want, param{name: p.Name, typ: types.TypeString(p.Type, qf)})
		}
	}
	named := len(want) == 0 || want[0].name != ""
	trailing := func(name, typ string) {
		if !named {
			name = ""
		}
		want = append(want, param{name: name, typ: typ})
	}
	switch {
	case role == RoleBlockHandler:
		trailing("blockErr", "*runtime.BlockError")
	case writesErrorForm(h.Type, len(want)):
		trailing("err", "error")
	}
	wantText := formatFunc(want, site.sig.Results(), qf)
	if tps := site.fn.TypeParams; len(tps) > 0 {
		var names []string
		for _, tp := range tps {
			names = append(names, tp.Name+" "+types.TypeString(tp.Constraint, qf))
		}
		wantText = "func[" + strings.Join(names, ", ") + "]" + strings.TrimPrefix(wantText, "func")
	}
	c.report(h.Pos, "%s %s has the wrong signature: want %s, have %s%s",
		roleKeys[h.Role], h.Written, wantText, formatSignature(h.Type, qf), hint).Related =
		[]RelatedInfo{{Pos: h.DeclPos, Message: h.Name + " declared here"}}
	c.diags[len(c.diags)-1].Fixes = c.signatureFixes(role, h, site)
}

// writesErrorForm reports whether a fallback's written signature is nearer
// the form that takes the error (the annotated function's n parameters plus
// err error) than the one without: it has one parameter more than n, or its
// last parameter is an error.
func writesErrorForm(sig *types.Signature, n int) bool {
	params := sig.Params()
	if params.Len() == n+1 {
		return true
	}
	return params.Len() > 0 && types.Identical(params.At(params.Len()-1).Type(), errorType)
}

func sameResults(a, b *types.Tuple) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if !types.Identical(a.At(i).Type(), b.At(i).Type()) {
			return false
		}
	}
	return true
}

// isBlockError reports whether t is *runtime.BlockError of this module.
func isBlockError(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == RuntimePath && obj.Name() == "BlockError"
}
