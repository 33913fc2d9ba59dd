package runtime

import (
	"math"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/internal/argview"
	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

type skuID string
type shardNo uint16

func argKeys(a ParamArg) []hotkeys.Key {
	var ks []hotkeys.Key
	for i := range a.keys() {
		ks = append(ks, a.key(i))
	}
	return ks
}

func keyOf(a ParamArg) hotkeys.Key { return a.key(0) }

func TestParamArgKeys(t *testing.T) {
	cases := []struct {
		arg  ParamArg
		want []hotkeys.Key
		text string
	}{
		{StringArg("sku-1"), []hotkeys.Key{hotkeys.StringKey("sku-1")}, "sku-1"},
		{IntArg(-3), []hotkeys.Key{hotkeys.IntKey(-3)}, "-3"},
		{IntArg(7), []hotkeys.Key{hotkeys.UintKey(7)}, "7"},
		{UintArg(math.MaxUint64), []hotkeys.Key{hotkeys.UintKey(math.MaxUint64)}, "18446744073709551615"},
		{FloatArg(0.25), []hotkeys.Key{hotkeys.FloatKey(0.25)}, "0.25"},
		{BoolArg(true), []hotkeys.Key{hotkeys.BoolKey(true)}, "true"},
		{StringsArg([]skuID{"a", "b"}), []hotkeys.Key{hotkeys.StringKey("a"), hotkeys.StringKey("b")}, "[a b]"},
		{IntsArg([]int8{-1, 2}), []hotkeys.Key{hotkeys.IntKey(-1), hotkeys.IntKey(2)}, "[-1 2]"},
		{UintsArg([]shardNo{9}), []hotkeys.Key{hotkeys.UintKey(9)}, "[9]"},
		{FloatsArg([]float32{0.5}), []hotkeys.Key{hotkeys.FloatKey(0.5)}, "[0.5]"},
		{BoolsArg([]bool{false}), []hotkeys.Key{hotkeys.BoolKey(false)}, "[false]"},
		{IntsArg([]int(nil)), nil, "[]"},
		{ParamArg{}, nil, ""},
	}
	for _, c := range cases {
		got := argKeys(c.arg)
		if len(got) != len(c.want) {
			t.Errorf("%s: keys %v, want %v", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: key %d = %v, want %v", c.text, i, got[i], c.want[i])
			}
		}
		if s := c.arg.String(); s != c.text {
			t.Errorf("String() = %q, want %q", s, c.text)
		}
	}
	// Kinds never collide: 1, "1", true and 1.0 are four keys.
	ks := []hotkeys.Key{keyOf(IntArg(1)), keyOf(StringArg("1")), keyOf(BoolArg(true)), keyOf(FloatArg(1))}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[i] == ks[j] {
				t.Errorf("keys %v and %v are equal", ks[i], ks[j])
			}
		}
	}
}

func TestParamArgBuildsWithoutAllocating(t *testing.T) {
	s, ints, f := "sku", []int32{1, 2}, []float64{1}
	var args [6]ParamArg
	allocs := testing.AllocsPerRun(100, func() {
		args[0], args[1], args[2] = StringArg(s), IntArg(3), FloatArg(2)
		args[3], args[4], args[5] = IntsArg(ints), FloatsArg(f), BoolArg(true)
	})
	if want := 0.0; !argviewPlain && allocs != want {
		t.Fatalf("building args allocates %v times", allocs)
	}
}

func TestItemClasses(t *testing.T) {
	ok := []struct {
		item ParamFlowItem
		arg  ParamArg
	}{
		// Go's integers match int and long items alike (Java's Integer
		// item never matches a Long argument).
		{ParamFlowItem{Object: "7", ClassType: "int"}, IntArg(7)},
		{ParamFlowItem{Object: "7", ClassType: "long"}, IntArg(7)},
		{ParamFlowItem{Object: "7", ClassType: "java.lang.Integer"}, UintArg(7)},
		{ParamFlowItem{Object: "-7", ClassType: "java.lang.Long"}, IntArg(-7)},
		{ParamFlowItem{Object: "127", ClassType: "byte"}, IntArg(127)},
		{ParamFlowItem{Object: "-32768", ClassType: "short"}, IntArg(-32768)},
		{ParamFlowItem{Object: "18446744073709551615", ClassType: "long"}, UintArg(math.MaxUint64)},
		{ParamFlowItem{Object: "sku-1", ClassType: ""}, StringArg("sku-1")},
		{ParamFlowItem{Object: "sku-1", ClassType: "String"}, StringArg("sku-1")},
		{ParamFlowItem{Object: "7", ClassType: "java.lang.String"}, StringArg("7")},
		{ParamFlowItem{Object: "é", ClassType: "char"}, StringArg("é")},
		{ParamFlowItem{Object: "TRUE", ClassType: "boolean"}, BoolArg(true)},
		{ParamFlowItem{Object: "false", ClassType: "java.lang.Boolean"}, BoolArg(false)},
		{ParamFlowItem{Object: "0.1", ClassType: "double"}, FloatArg(0.1)},
		{ParamFlowItem{Object: "0.1", ClassType: "float"}, FloatArg(float64(float32(0.1)))},
		{ParamFlowItem{Object: "1e40", ClassType: "float"}, FloatArg(math.Inf(1))},
	}
	for _, c := range ok {
		k, field, reason := parseItem(c.item)
		if field != "" {
			t.Errorf("%+v: %s %s", c.item, field, reason)
			continue
		}
		if k != keyOf(c.arg) {
			t.Errorf("%+v parses to %v, want the key of %v", c.item, k, c.arg)
		}
	}
	// Same text, other kind: no match.
	for _, c := range []struct {
		item ParamFlowItem
		arg  ParamArg
	}{
		{ParamFlowItem{Object: "7", ClassType: "String"}, IntArg(7)},
		{ParamFlowItem{Object: "7", ClassType: "int"}, StringArg("7")},
		{ParamFlowItem{Object: "0.1", ClassType: "float"}, FloatArg(0.1)},
		{ParamFlowItem{Object: "0.1", ClassType: "double"}, FloatArg(float64(float32(0.1)))},
		{ParamFlowItem{Object: "1", ClassType: "double"}, IntArg(1)},
	} {
		if k, _, _ := parseItem(c.item); k == keyOf(c.arg) {
			t.Errorf("%+v matches %v", c.item, c.arg)
		}
	}
	bad := []struct {
		item  ParamFlowItem
		field string
	}{
		{ParamFlowItem{Object: "3000000000", ClassType: "int"}, "Object"},
		{ParamFlowItem{Object: "128", ClassType: "byte"}, "Object"},
		{ParamFlowItem{Object: " 7", ClassType: "long"}, "Object"},
		{ParamFlowItem{Object: "seven", ClassType: "int"}, "Object"},
		{ParamFlowItem{Object: "yes", ClassType: "boolean"}, "Object"},
		{ParamFlowItem{Object: "ab", ClassType: "char"}, "Object"},
		{ParamFlowItem{Object: "x", ClassType: "double"}, "Object"},
		{ParamFlowItem{Object: "x", ClassType: "java.util.Date"}, "ClassType"},
	}
	for _, c := range bad {
		if _, field, _ := parseItem(c.item); field != c.field {
			t.Errorf("%+v: field %q, want %q", c.item, field, c.field)
		}
	}
}

// argviewPlain is true when slice arguments are copied (sentinel_purego),
// which allocates by design.
const argviewPlain = argview.Plain
