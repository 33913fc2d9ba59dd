package lint

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
)

// This file resolves a param-flow rule against the method its resource
// guards, for the checks of check_params.go: the linter knows each
// parameter's Go type (annotate.HotParam), which neither Sentinel nor the
// runtime does when a rule is loaded.

// paramRule is param-flow rule i with what the code says about it.
type paramRule struct {
	i    int
	at   rules.Position
	res  *annotate.Resource // nil when no directive declares the resource
	name string             // the parameter name the rule gives, "" when it gives paramIdx
	// idx is the resolved index into res.HotParams, -1 when the rule
	// selects no parameter (out of range, or a name the method has not).
	idx int
}

// param is the selected parameter; call only when idx >= 0.
func (r paramRule) param() annotate.HotParam { return r.res.HotParams[r.idx] }

// paramRules resolves every param-flow rule of the set whose resource a
// directive declares; rules of other resources are unknown-resource's.
func (p *pass) paramRules() []paramRule {
	var out []paramRule
	for i, rule := range p.set.ParamFlow {
		res := p.declared[rule.Resource]
		if res == nil {
			continue
		}
		pr := paramRule{i: i, at: p.paramFlowAt(i), res: res, idx: -1}
		if i < len(p.set.ParamFlowParam) {
			pr.name = p.set.ParamFlowParam[i]
		}
		if pr.name != "" {
			for j, hp := range res.HotParams {
				if hp.Name == pr.name {
					pr.idx = j
					break
				}
			}
		} else {
			pr.idx = resolveIndex(rule.ParamIdx, len(res.HotParams))
		}
		out = append(out, pr)
	}
	return out
}

// resolveIndex turns paramIdx into an index of n parameters as the runtime
// and Sentinel do (a negative one counts from the end), -1 when out of range.
func resolveIndex(idx, n int) int {
	if idx < 0 {
		idx += n
	}
	if idx < 0 || idx >= n {
		return -1
	}
	return idx
}

// paramFlowAt is flowAt for param-flow rules.
func (p *pass) paramFlowAt(i int) rules.Position {
	if i < len(p.set.ParamFlowAt) && !p.set.ParamFlowAt[i].IsZero() {
		return p.set.ParamFlowAt[i]
	}
	return rules.Position{Path: fmt.Sprintf("paramFlow[%d]", i)}
}

// fieldAt is where a field of the rule read at pos is: its JSON path when
// the rule has one, else the rule's own position (a TOML rule's header).
func fieldAt(pos rules.Position, key string) rules.Position {
	if pos.Path != "" {
		pos.Path += "." + key
	}
	return pos
}

// itemAt is where item j of the rule read at pos is.
func itemAt(pos rules.Position, j int) rules.Position {
	return fieldAt(pos, "paramFlowItemList["+strconv.Itoa(j)+"]")
}

// declaredAt points at a parameter's declaration in the Go source.
func declaredAt(hp annotate.HotParam, what string) Related {
	return Related{Pos: rules.Position{File: hp.Pos.Filename, Line: hp.Pos.Line}, Message: what}
}

// paramList names a method's hot parameters with their indexes for
// messages: "sku (0), qty (1)".
func paramList(hps []annotate.HotParam) string {
	parts := make([]string, len(hps))
	for i, hp := range hps {
		parts[i] = displayName(hp) + " (" + strconv.Itoa(i) + ")"
	}
	return strings.Join(parts, ", ")
}

// displayName is a parameter's name for messages.
func displayName(hp annotate.HotParam) string {
	if hp.Name == "" || hp.Name == "_" {
		return "unnamed parameter " + strconv.Itoa(hp.Index)
	}
	return hp.Name
}

// describeParam names the selected parameter with its type and index:
// "sku (string, paramIdx 0)".
func describeParam(r paramRule, qf types.Qualifier) string {
	hp := r.param()
	return fmt.Sprintf("%s (%s, paramIdx %d)", displayName(hp), types.TypeString(hp.Type, qf), r.idx)
}

// funcName is the guarded function for messages: (*T).M or F.
func funcName(res *annotate.Resource) string {
	if res.Func.Recv == nil {
		return res.Func.Name
	}
	recv := res.Func.Recv.TypeName
	if res.Func.Recv.Pointer {
		recv = "*" + recv
	}
	return "(" + recv + ")." + res.Func.Name
}

// afterCtx says which parameters count, for messages.
func afterCtx(res *annotate.Resource) string {
	if res.Func.HasContext {
		return "after ctx"
	}
	return "(it takes no context.Context, so all count)"
}

// javaClass is what an item's classType makes of its value, as Sentinel
// (ParamFlowRuleUtil.parseItemValue) and the runtime parse it: the key
// kind, the width in bits of an integer or float class (0 otherwise) and
// the Java class. char is a one-character string here. ok is false for a
// class type the runtime refuses, which invalid-rule reports.
func javaClass(classType string) (kind annotate.ParamKind, bits int, boxed string, ok bool) {
	switch classType {
	case "int", "java.lang.Integer":
		return annotate.ParamInt, 32, "Integer", true
	case "long", "java.lang.Long":
		return annotate.ParamInt, 64, "Long", true
	case "short", "java.lang.Short":
		return annotate.ParamInt, 16, "Short", true
	case "byte", "java.lang.Byte":
		return annotate.ParamInt, 8, "Byte", true
	case "double", "java.lang.Double":
		return annotate.ParamFloat, 64, "Double", true
	case "float", "java.lang.Float":
		return annotate.ParamFloat, 32, "Float", true
	case "boolean", "java.lang.Boolean":
		return annotate.ParamBool, 0, "Boolean", true
	case "char", "java.lang.Character":
		return annotate.ParamString, 0, "Character", true
	case "", "String", "java.lang.String":
		return annotate.ParamString, 0, "String", true
	}
	return annotate.ParamNotKey, 0, "", false
}

// floatMiss reports whether a float item of one width can never equal an
// argument of the other: the runtime parses a float item to the nearest
// float32 and widens a float32 argument, so 0.1 typed double never equals
// a float32 argument of 0.1, nor 0.1 typed float a float64 one. Values a
// float32 holds exactly (0.5) do match.
func floatMiss(hp annotate.HotParam, bits int, object string) bool {
	gb := goBits(elemType(hp))
	if keyKind(hp) != annotate.ParamFloat || gb == 0 || bits == gb {
		return false
	}
	v, err := strconv.ParseFloat(object, 64)
	return err == nil && float64(float32(v)) != v
}

// keyKind is the kind of key a parameter hands the runtime: a key method's
// result is a string.
func keyKind(hp annotate.HotParam) annotate.ParamKind {
	if hp.Kind == annotate.ParamKeyMethod {
		return annotate.ParamString
	}
	return hp.Kind
}

// sameKind reports whether an item of class kind can match a key of kind
// key: Java has no unsigned integers, so an integer class matches both.
func sameKind(class, key annotate.ParamKind) bool {
	if class == annotate.ParamInt {
		return key == annotate.ParamInt || key == annotate.ParamUint
	}
	return class == key
}

// goBits is the width of a sized Go integer or float type (after its
// underlying type), 0 for int, uint, uintptr and everything else: those
// have no single Java counterpart.
func goBits(t types.Type) int {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0
	}
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32, types.Float32:
		return 32
	case types.Int64, types.Uint64, types.Float64:
		return 64
	}
	return 0
}

// elemType is the type whose values are keys: the element of a slice
// parameter, else the parameter's type.
func elemType(hp annotate.HotParam) types.Type {
	if hp.Slice {
		if s, ok := hp.Type.Underlying().(*types.Slice); ok {
			return s.Elem()
		}
	}
	return hp.Type
}
