package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

// itemClass is what ParamFlowItem.ClassType names, grouped by the Go key
// kind it becomes.
type itemClass struct {
	kind hotkeys.Kind
	bits int // integer range (8, 16, 32, 64), or float precision (32, 64)
	char bool
}

// itemClasses maps Sentinel's class names (ParamFlowRuleUtil.parseItemValue:
// primitive and java.lang names) to key classes. Integers of every width are
// one kind, so an item typed int matches a Go int64 argument: Java compares
// boxed values, and an Integer item never matches a Long argument.
var itemClasses = map[string]itemClass{
	"":                    {kind: hotkeys.String},
	"String":              {kind: hotkeys.String},
	"java.lang.String":    {kind: hotkeys.String},
	"char":                {kind: hotkeys.String, char: true},
	"java.lang.Character": {kind: hotkeys.String, char: true},
	"int":                 {kind: hotkeys.Int, bits: 32},
	"java.lang.Integer":   {kind: hotkeys.Int, bits: 32},
	"long":                {kind: hotkeys.Int, bits: 64},
	"java.lang.Long":      {kind: hotkeys.Int, bits: 64},
	"short":               {kind: hotkeys.Int, bits: 16},
	"java.lang.Short":     {kind: hotkeys.Int, bits: 16},
	"byte":                {kind: hotkeys.Int, bits: 8},
	"java.lang.Byte":      {kind: hotkeys.Int, bits: 8},
	"double":              {kind: hotkeys.Float, bits: 64},
	"java.lang.Double":    {kind: hotkeys.Float, bits: 64},
	"float":               {kind: hotkeys.Float, bits: 32},
	"java.lang.Float":     {kind: hotkeys.Float, bits: 32},
	"boolean":             {kind: hotkeys.Bool},
	"java.lang.Boolean":   {kind: hotkeys.Bool},
}

// parseItem is the key item.Object names under item.ClassType, or the
// field at fault and why. Sentinel skips such an item with a log line and
// loads the rule without it; here the load fails, naming the item.
func parseItem(item ParamFlowItem) (k hotkeys.Key, field, reason string) {
	c, ok := itemClasses[item.ClassType]
	if !ok {
		return k, "ClassType", fmt.Sprintf("%q is not a class type (int, long, short, byte, double, float, boolean, char, String or their java.lang names)", item.ClassType)
	}
	o := item.Object
	switch c.kind {
	case hotkeys.String:
		if c.char && utf8.RuneCountInString(o) != 1 {
			return k, "Object", fmt.Sprintf("%q must be one character for ClassType %s", o, item.ClassType)
		}
		return hotkeys.StringKey(o), "", ""
	case hotkeys.Int:
		if n, err := strconv.ParseInt(o, 10, c.bits); err == nil {
			return hotkeys.IntKey(n), "", ""
		}
		if c.bits == 64 {
			// A Go uint64 above MaxInt64 has no Java type; a long item
			// may name it.
			if u, err := strconv.ParseUint(o, 10, 64); err == nil {
				return hotkeys.UintKey(u), "", ""
			}
		}
		return k, "Object", fmt.Sprintf("%q is not a %d-bit integer (ClassType %s)", o, c.bits, item.ClassType)
	case hotkeys.Float:
		f, err := strconv.ParseFloat(o, c.bits)
		if err != nil && !math.IsInf(f, 0) || strings.TrimSpace(o) != o {
			return k, "Object", fmt.Sprintf("%q is not a number (ClassType %s)", o, item.ClassType)
		}
		// ParseFloat(o, 32) rounds to the nearest float32, which is what
		// a float32 argument widened to float64 holds.
		return hotkeys.FloatKey(f), "", ""
	default: // hotkeys.Bool
		switch strings.ToLower(o) {
		case "true":
			return hotkeys.BoolKey(true), "", ""
		case "false":
			return hotkeys.BoolKey(false), "", ""
		}
		return k, "Object", fmt.Sprintf("%q is not true or false (ClassType %s)", o, item.ClassType)
	}
}
