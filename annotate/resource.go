package annotate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"time"
)

// errorType is the predeclared error interface.
var errorType = types.Universe.Lookup("error").Type()

// resource builds the model of one annotated declaration, reporting every
// problem on the way. It returns nil only when the declaration has no type
// information (its type errors are reported by the loader).
func (c *checker) resource(a annotated) *Resource {
	obj, _ := c.info.Defs[a.decl.Name].(*types.Func)
	if obj == nil {
		return nil
	}
	sig := obj.Type().(*types.Signature)
	if sig.Recv() == nil && (obj.Name() == "init" || obj.Name() == "_") {
		c.report(a.dir.Pos, "func %s cannot be guarded: Go code cannot call it", obj.Name())
		return nil
	}
	fn := c.funcModel(obj, sig)
	if fn.Recv != nil && fn.Name == fn.Recv.TypeName {
		// The wrapper embeds *T, which gives it a field named T; Go does
		// not allow a method of the same name beside it.
		c.report(a.dir.Pos, "method %[1]s cannot be guarded: it has the name of its type, and the wrapper %[2]s, which embeds *%[1]s as field %[1]s, cannot also have a method %[1]s; rename the method",
			fn.Name, guardedName(fn.Name))
	}
	r := &Resource{
		Pos:           a.dir.Pos,
		Func:          fn,
		HotParams:     c.hotParams(fn, sig),
		GeneratedName: fn.Name,
	}
	if fn.Recv == nil {
		r.GeneratedName = guardedName(fn.Name)
	}
	c.namePos[r] = a.dir.Pos
	if arg, ok := a.dir.Lookup(KeyName); ok {
		r.Name = arg.Value
		c.namePos[r] = arg.ValuePos
	} else {
		recv := ""
		if fn.Recv != nil {
			recv = fn.Recv.TypeName
		}
		r.Name = defaultResourceName(c.pkg, recv, fn.Name)
	}
	if arg, ok := a.dir.Lookup(KeyEntryType); ok {
		r.EntryType = entryTypes[arg.Value]
	}
	if arg, ok := a.dir.Lookup(KeyResourceType); ok {
		r.ResourceType = resourceTypes[arg.Value]
	}
	hs := handlerSite{fn: fn, sig: sig, file: a.file, decl: a.decl}
	if arg, ok := a.dir.Lookup(KeyBlockHandler); ok {
		r.BlockHandler = c.handler(RoleBlockHandler, arg, hs)
	}
	if arg, ok := a.dir.Lookup(KeyFallback); ok {
		r.Fallback = c.handler(RoleFallback, arg, hs)
	}
	if arg, ok := a.dir.Lookup(KeyDefaultFallback); ok {
		r.DefaultFallback = c.handler(RoleDefaultFallback, arg, hs)
	}
	// An error result in the wrong place is already reported; saying that
	// there is none would only confuse.
	noError := fn.ErrorResult < 0 && !hasErrorResult(sig)
	for _, key := range []string{KeyIgnore, KeyTrace} {
		arg, ok := a.dir.Lookup(key)
		if !ok || fn.ErrorResult < 0 && !noError {
			continue
		}
		if noError {
			c.report(arg.KeyPos, "%s has no effect: %s has no error result", key, fn.Name)
			continue
		}
		ms := c.matchers(arg, a.file)
		if key == KeyIgnore {
			r.Ignore = ms
		} else {
			r.Trace = ms
		}
	}
	c.callPolicy(r, a.dir, noError)
	if noError && !hasAny(a.dir, KeyBlockHandler, KeyFallback, KeyDefaultFallback) {
		c.report(a.dir.Pos, "%s has no error result, so a blocked call can only be answered by a handler: add blockHandler, fallback or defaultFallback", fn.Name)
	}
	return r
}

// callPolicy reads timeout, retries, retryBackoff and retryBudget into r and
// checks that the function can honour them: a timeout reaches the call
// through its context, and both report through its error result.
func (c *checker) callPolicy(r *Resource, d *Directive, noError bool) {
	fn := r.Func
	if arg, ok := d.Lookup(KeyTimeout); ok {
		r.Timeout, _ = time.ParseDuration(arg.Value)
		switch {
		case !fn.HasContext:
			c.report(arg.KeyPos, "timeout needs %s to take a context.Context as its first parameter, which carries the deadline: add ctx context.Context and pass it on to what the call waits for", fn.Name)
		case noError:
			c.report(arg.KeyPos, "timeout needs an error result to report a call that timed out: %s has none", fn.Name)
		}
	}
	arg, ok := d.Lookup(KeyRetries)
	if ok {
		r.Retries, _ = strconv.Atoi(arg.Value)
		r.RetryBackoff, r.RetryBudget = DefaultRetryBackoff, DefaultRetryBudget
		if noError {
			c.report(arg.KeyPos, "retries needs an error result: a call is retried when it returns an error, and %s has none", fn.Name)
		}
	}
	if b, has := d.Lookup(KeyRetryBackoff); has {
		if !ok {
			c.report(b.KeyPos, "retryBackoff has no effect without retries=N")
		}
		r.RetryBackoff, _ = time.ParseDuration(b.Value)
	}
	if b, has := d.Lookup(KeyRetryBudget); has {
		if !ok {
			c.report(b.KeyPos, "retryBudget has no effect without retries=N")
		}
		r.RetryBudget, _ = strconv.ParseFloat(b.Value, 64)
	}
	if !ok {
		r.RetryBackoff, r.RetryBudget = 0, 0
	}
}

func hasErrorResult(sig *types.Signature) bool {
	for v := range sig.Results().Variables() {
		if types.Identical(v.Type(), errorType) {
			return true
		}
	}
	return false
}

func hasAny(d *Directive, keys ...string) bool {
	for _, k := range keys {
		if _, ok := d.Lookup(k); ok {
			return true
		}
	}
	return false
}

// funcModel describes the annotated function's signature and checks where
// its error result is.
func (c *checker) funcModel(obj *types.Func, sig *types.Signature) *Func {
	fn := &Func{
		Name:        obj.Name(),
		Pos:         c.position(obj.Pos()),
		Variadic:    sig.Variadic(),
		ErrorResult: -1,
	}
	fn.TypeParams = typeParams(sig.TypeParams())
	if recv := sig.Recv(); recv != nil {
		t, ptr := recv.Type(), false
		if p, ok := t.(*types.Pointer); ok {
			t, ptr = p.Elem(), true
		}
		if named, ok := types.Unalias(t).(*types.Named); ok {
			fn.Recv = &Receiver{
				TypeName:   named.Obj().Name(),
				Pointer:    ptr,
				TypeParams: typeParams(sig.RecvTypeParams()),
			}
		}
	}
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		fn.Params = append(fn.Params, Var{Name: v.Name(), Type: v.Type()})
	}
	fn.HasContext = len(fn.Params) > 0 && isContext(fn.Params[0].Type)
	res := sig.Results()
	for i := range res.Len() {
		v := res.At(i)
		fn.Results = append(fn.Results, Var{Name: v.Name(), Type: v.Type()})
	}
	for i := res.Len() - 1; i >= 0; i-- {
		if !types.Identical(res.At(i).Type(), errorType) {
			continue
		}
		if i != res.Len()-1 {
			c.report(c.position(res.At(i).Pos()), "the error result of %s must be its last result", fn.Name)
			break
		}
		fn.ErrorResult = i
		break
	}
	return fn
}

func typeParams(list *types.TypeParamList) []TypeParam {
	if list == nil || list.Len() == 0 {
		return nil
	}
	tps := make([]TypeParam, list.Len())
	for i := range list.Len() {
		tp := list.At(i)
		tps[i] = TypeParam{Name: tp.Obj().Name(), Constraint: tp.Constraint()}
	}
	return tps
}

func isContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "context" && obj.Name() == "Context"
}

// wrappers groups annotated methods by receiver type, in source order.
func (c *checker) wrappers(rs []*Resource) []*Wrapper {
	var ws []*Wrapper
	byType := map[string]*Wrapper{}
	for _, r := range rs {
		recv := r.Func.Recv
		if recv == nil {
			continue
		}
		w := byType[recv.TypeName]
		if w == nil {
			w = &Wrapper{
				Recv:        recv,
				TypeName:    guardedName(recv.TypeName),
				Constructor: constructorName(recv.TypeName),
			}
			byType[recv.TypeName] = w
			ws = append(ws, w)
		}
		w.Methods = append(w.Methods, r)
	}
	return ws
}

// checkCollisions reports generated names that the user's code already
// declares at package level (or uses as an import name, which Go forbids
// too), at the directive that causes them.
func (c *checker) checkCollisions(model *Package, files []*ast.File) {
	type cause struct {
		name string
		at   *Resource
	}
	var causes []cause
	for _, w := range model.Wrappers {
		causes = append(causes, cause{w.TypeName, w.Methods[0]}, cause{w.Constructor, w.Methods[0]})
	}
	for _, r := range model.Resources {
		if r.Func.Recv == nil {
			causes = append(causes, cause{r.GeneratedName, r})
		}
	}
	for _, cs := range causes {
		if obj := c.pkg.Scope().Lookup(cs.name); c.isUserObject(obj) {
			c.report(cs.at.Pos, "generated name %s collides with a declaration in package %s; rename that declaration", cs.name, c.pkg.Name()).Related =
				[]RelatedInfo{{Pos: c.position(obj.Pos()), Message: cs.name + " declared here"}}
			continue
		}
		if pos, ok := c.importNamed(files, cs.name); ok {
			c.report(cs.at.Pos, "generated name %s collides with an import name; rename the import", cs.name).Related =
				[]RelatedInfo{{Pos: pos, Message: "imported as " + cs.name + " here"}}
		}
	}
}

func (c *checker) importNamed(files []*ast.File, name string) (token.Position, bool) {
	for _, f := range files {
		for _, spec := range f.Imports {
			if c.importName(spec) == name {
				return c.position(spec.Pos()), true
			}
		}
	}
	return token.Position{}, false
}

// checkDuplicateNames reports every resource whose name another resource of
// the package also uses, each pointing at the other.
func (c *checker) checkDuplicateNames(rs []*Resource) {
	byName := map[string][]*Resource{}
	for _, r := range rs {
		byName[r.Name] = append(byName[r.Name], r)
	}
	for _, r := range rs {
		for _, other := range byName[r.Name] {
			if other != r {
				c.diags = append(c.diags, duplicateName(r, c.namePos[r], other, c.namePos[other], ""))
			}
		}
	}
}

// duplicateName is the diagnostic at r for sharing its name with other,
// which is in package otherPkg when that is not "".
func duplicateName(r *Resource, at token.Position, other *Resource, otherAt token.Position, otherPkg string) Diagnostic {
	where := ""
	if otherPkg != "" {
		where = " in package " + otherPkg
	}
	return Diagnostic{
		Pos:     at,
		Message: "resource name " + quoteName(r.Name) + " is also used by " + describe(other) + where,
		Related: []RelatedInfo{{Pos: otherAt, Message: "other use of " + quoteName(r.Name)}},
	}
}

func quoteName(s string) string { return strconv.Quote(s) }

// describe names a resource's function for messages: T.M or F.
func describe(r *Resource) string {
	if r.Func.Recv != nil {
		return r.Func.Recv.TypeName + "." + r.Func.Name
	}
	return r.Func.Name
}
