package lint

import (
	"fmt"
	"go/types"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// The checks of param-flow rules against the guarded method's parameters
// (resolved in params.go). Each finding is positioned at the rule, its
// paramIdx or its item, and points at the parameter's declaration.

// byPackageName writes types qualified by package name, as code reads.
func byPackageName(p *types.Package) string { return p.Name() }

// checkParamIndex reports a paramIdx outside the method's parameters.
func checkParamIndex(p *pass) {
	for _, r := range p.paramRules() {
		if r.name != "" || r.idx >= 0 {
			continue
		}
		idx := p.set.ParamFlow[r.i].ParamIdx
		hps := r.res.HotParams
		if len(hps) == 0 {
			p.report(fieldAt(r.at, "paramIdx"), "", "paramIdx %d selects nothing: %s has no parameters %s, so the rule never applies",
				idx, funcName(r.res), afterCtx(r.res))
			continue
		}
		p.report(fieldAt(r.at, "paramIdx"), "", "paramIdx %d is out of range: %s has %s %s, %s (negative indexes count from the end, down to %d), so the rule never applies",
			idx, funcName(r.res), plural(len(hps), "parameter"), afterCtx(r.res), paramList(hps), -len(hps))
	}
}

// checkUnknownParam reports a parameter name the method does not have.
func checkUnknownParam(p *pass) {
	for _, r := range p.paramRules() {
		if r.name == "" || r.idx >= 0 {
			continue
		}
		names := make([]string, 0, len(r.res.HotParams))
		for _, hp := range r.res.HotParams {
			if hp.Name != "" && hp.Name != "_" {
				names = append(names, hp.Name)
			}
		}
		suggestion := annotate.ClosestName(r.name, names)
		msg := fmt.Sprintf("param %q is not a parameter of %s", r.name, funcName(r.res))
		switch {
		case len(r.res.HotParams) == 0:
			msg += fmt.Sprintf(", which has no parameters %s", afterCtx(r.res))
		default:
			msg += fmt.Sprintf("; its parameters %s are %s", afterCtx(r.res), paramList(r.res.HotParams))
		}
		if suggestion != "" {
			msg += "; did you mean " + suggestion + "?"
		}
		p.report(fieldAt(r.at, "param"), suggestion, "%s", msg)
	}
}

// checkParamNotKey reports a rule on a parameter whose type gives no key.
func checkParamNotKey(p *pass) {
	for _, r := range p.paramRules() {
		if r.idx < 0 || r.param().Kind != annotate.ParamNotKey {
			continue
		}
		hp := r.param()
		p.report(r.at, "", "parameter %s cannot be a hot-parameter key, so the rule never blocks: keys are strings, integers, floats, bools, slices of those, and types with a method %s() string; give the type that method or limit another parameter",
			describeParam(r, byPackageName), annotate.KeyMethodName)
		p.diags[len(p.diags)-1].Related = []Related{declaredAt(hp, displayName(hp)+" declared here")}
	}
}

// checkParamItemType reports an item whose classType gives a value of
// another kind than the parameter's keys: the runtime matches an item
// only to a key of its kind, so the item's threshold never applies.
func checkParamItemType(p *pass) {
	for _, r := range p.paramRules() {
		if r.idx < 0 || r.param().Kind == annotate.ParamNotKey {
			continue
		}
		hp := r.param()
		for j, it := range p.set.ParamFlow[r.i].Items {
			class, bits, _, ok := javaClass(it.ClassType)
			if !ok {
				continue // invalid-rule's
			}
			if floatMiss(hp, bits, it.Object) {
				p.report(itemAt(r.at, j), "", "item %q (classType %s) never matches parameter %s: the runtime compares the item as a %d-bit float with a %d-bit argument, and %s is not exact in 32 bits; its count %d never applies; use classType %s",
					it.Object, classTypeText(it.ClassType), describeParam(r, byPackageName), bits, goBits(elemType(hp)), it.Object, it.Count, suggestClass(hp))
				p.diags[len(p.diags)-1].Related = []Related{declaredAt(hp, displayName(hp)+" declared here")}
				continue
			}
			if sameKind(class, keyKind(hp)) {
				continue
			}
			p.report(itemAt(r.at, j), "", "item %q (classType %s, a %s) never matches parameter %s, whose keys are of kind %s: its count %d never applies; use classType %s",
				it.Object, classTypeText(it.ClassType), class, describeParam(r, byPackageName), keyDescription(hp), it.Count, suggestClass(hp))
			p.diags[len(p.diags)-1].Related = []Related{declaredAt(hp, displayName(hp)+" declared here")}
		}
	}
}

// checkParamItemJava reports an item this runtime matches but Java's
// Sentinel would not: Sentinel compares the boxed argument with the item's
// value by equals, so an Integer item never matches a Long argument (the
// int-vs-long silent miss, which sentinel-golang has too with int vs
// int64). Rules shared with Java services then behave differently there.
func checkParamItemJava(p *pass) {
	for _, r := range p.paramRules() {
		if r.idx < 0 {
			continue
		}
		hp := r.param()
		if hp.Kind == annotate.ParamNotKey || hp.Kind == annotate.ParamKeyMethod {
			continue
		}
		elem := elemType(hp)
		for j, it := range p.set.ParamFlow[r.i].Items {
			class, bits, boxed, ok := javaClass(it.ClassType)
			if !ok || !sameKind(class, keyKind(hp)) || floatMiss(hp, bits, it.Object) {
				continue // invalid-rule's or checkParamItemType's
			}
			want := javaFor(elem, hp.Kind)
			switch {
			case class == annotate.ParamString && boxed == "Character":
				// A Go string is a Java String; a Character item matches
				// only a char argument.
			case bits == 0 || goBits(elem) == 0 || goBits(elem) == bits:
				continue
			}
			p.report(itemAt(r.at, j), "", "item %q has classType %s, but parameter %s is a Java %s: this runtime matches the item, but Java's Sentinel compares the boxed %s argument with the %s item by equals and never matches it; write classType %s if Java services share these rules",
				it.Object, classTypeText(it.ClassType), describeParam(r, byPackageName), want, want, boxed, primitiveOf(want))
			p.diags[len(p.diags)-1].Related = []Related{declaredAt(hp, displayName(hp)+" declared here")}
		}
	}
}

// classTypeText quotes a class type for messages, naming a blank one.
func classTypeText(ct string) string {
	if ct == "" {
		return `"" (String)`
	}
	return fmt.Sprintf("%q", ct)
}

// keyDescription says what keys a parameter hands the runtime.
func keyDescription(hp annotate.HotParam) string {
	s := keyKind(hp).String()
	if hp.Kind == annotate.ParamKeyMethod {
		s += " (from " + annotate.KeyMethodName + ")"
	}
	if hp.Slice {
		s += ", one per element"
	}
	return s
}

// suggestClass is the class type to write for a parameter's keys.
func suggestClass(hp annotate.HotParam) string {
	if keyKind(hp) == annotate.ParamString {
		return "String"
	}
	return primitiveOf(javaFor(elemType(hp), hp.Kind))
}

// javaFor is the Java boxed class of a Go value type: Long for int64 and
// for int (64 bits on the platforms Go services run on), Integer for
// int32, and so on; for a type parameter, the widest class of its kind.
func javaFor(t types.Type, kind annotate.ParamKind) string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		switch kind {
		case annotate.ParamInt, annotate.ParamUint:
			return "Long"
		case annotate.ParamFloat:
			return "Double"
		case annotate.ParamBool:
			return "Boolean"
		}
		return "String"
	}
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return "Byte"
	case types.Int16, types.Uint16:
		return "Short"
	case types.Int32, types.Uint32:
		return "Integer"
	case types.Float32:
		return "Float"
	case types.Float64:
		return "Double"
	case types.Bool:
		return "Boolean"
	}
	if b.Info()&types.IsInteger != 0 {
		return "Long"
	}
	return "String"
}

// primitiveOf is the classType word for a boxed class: the primitive's
// name, or String.
func primitiveOf(boxed string) string {
	if w, ok := primitives[boxed]; ok {
		return w
	}
	return "String"
}

var primitives = map[string]string{
	"Integer": "int", "Long": "long", "Short": "short", "Byte": "byte",
	"Float": "float", "Double": "double", "Boolean": "boolean",
}

// plural writes "1 parameter", "2 parameters".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
