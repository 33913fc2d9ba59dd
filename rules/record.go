package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Both decoders turn their document into records: ordered key/value entries
// with a position each. The rule decoding in fields.go works on records only,
// so TOML and Sentinel JSON share one set of field names, types, defaults and
// messages.

// valueKind is the type of a value as its document wrote it.
type valueKind int

const (
	valNull valueKind = iota
	valBool
	valInt
	valFloat
	valString
	valTable
	valArray
	valOther // TOML dates and times: nothing in a rule takes them
)

// value is one document value, reduced to what rule fields can take.
type value struct {
	kind  valueKind
	b     bool
	i     int64
	f     float64
	s     string
	table *record
	items []value
	pos   Position
}

// entry is one key of a record with its value; pos is where the key was read.
type entry struct {
	key string
	val value
	pos Position
}

// record is one table or object: a rule, or a rule's clusterConfig.
type record struct {
	pos     Position
	entries []entry
}

// describe names v for messages: `"abc"`, `-3`, `1.5`, `true`, `a table`.
func (v value) describe() string {
	switch v.kind {
	case valNull:
		return "null"
	case valBool:
		return strconv.FormatBool(v.b)
	case valInt:
		return strconv.FormatInt(v.i, 10)
	case valFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case valString:
		return strconv.Quote(v.s)
	case valTable:
		return "a table"
	case valArray:
		return "an array"
	}
	return "a date or time"
}

// typeName is the kind of v in words, for "want ..., found ..." messages.
func (v value) typeName() string {
	switch v.kind {
	case valNull:
		return "null"
	case valBool:
		return "boolean"
	case valInt:
		return "integer"
	case valFloat:
		return "number"
	case valString:
		return "string"
	case valTable:
		return "table"
	case valArray:
		return "array"
	}
	return "date/time"
}

func wrongType(want string, v value) string {
	if v.kind == valTable || v.kind == valArray || v.kind == valOther || v.kind == valNull {
		return "want " + want + ", found " + v.describe()
	}
	return "want " + want + ", found " + v.typeName() + " " + v.describe()
}

// asFloat reads a number; integers are numbers too.
func asFloat(v value) (float64, string) {
	switch v.kind {
	case valFloat:
		return v.f, ""
	case valInt:
		return float64(v.i), ""
	}
	return 0, wrongType("a number", v)
}

// asInt reads an integer that fits an int32 (every integer rule field is a
// count, a number of ms or s, or an enum); a float with no fraction (10.0,
// 1e3) is accepted since JSON writers often produce them.
func asInt(v value) (int64, string) {
	var n int64
	switch v.kind {
	case valInt:
		n = v.i
	case valFloat:
		if v.f != math.Trunc(v.f) || math.IsInf(v.f, 0) {
			return 0, v.describe() + " is not a whole number"
		}
		if math.Abs(v.f) > math.MaxInt32 {
			return 0, v.describe() + " is out of range" + int32Range
		}
		n = int64(v.f)
	default:
		return 0, wrongType("an integer", v)
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, v.describe() + " is out of range" + int32Range
	}
	return n, ""
}

const int32Range = " (-2147483648..2147483647)"

func asString(v value) (string, string) {
	if v.kind != valString {
		return "", wrongType("a string", v)
	}
	return v.s, ""
}

func asBool(v value) (bool, string) {
	if v.kind != valBool {
		return false, wrongType("true or false", v)
	}
	return v.b, ""
}

// asDuration reads a duration string ("500ms", "10s", "1m30s") as a whole
// number of unit. Numbers are refused: the spelling with the unit in its
// name (statIntervalMs) is the one for numbers.
func asDuration(v value, unit time.Duration, numericKey string) (int64, string) {
	if v.kind != valString {
		return 0, wrongType(fmt.Sprintf("a duration string such as %q (for a number use %s)", example(unit), numericKey), v)
	}
	d, err := time.ParseDuration(v.s)
	if err != nil {
		return 0, fmt.Sprintf("%q is not a duration; write e.g. %q", v.s, example(unit))
	}
	if d < 0 {
		return 0, fmt.Sprintf("%q must not be negative", v.s)
	}
	if d%unit != 0 {
		return 0, fmt.Sprintf("%q is not a whole number of %s", v.s, unitName(unit))
	}
	n := int64(d / unit)
	if n > math.MaxInt32 {
		return 0, fmt.Sprintf("%q is out of range (at most %d %s)", v.s, math.MaxInt32, unitName(unit))
	}
	return n, ""
}

func example(unit time.Duration) string {
	if unit == time.Second {
		return "10s"
	}
	return "500ms"
}

func unitName(unit time.Duration) string {
	if unit == time.Second {
		return "seconds"
	}
	return "milliseconds"
}

// enum is a rule field with named values: the document may give the word
// (any case) or Sentinel's number.
type enum struct {
	what  string   // "flow grade", for messages
	words []string // words[n] names Sentinel's value n; "" for a gap
	// goOf[n] is the Go constant for Sentinel's value n, where the two
	// differ (FlowGrade: the Go zero value is QPS, Sentinel's 1); nil when
	// Go uses Sentinel's numbers.
	goOf []int64
}

// toGo maps Sentinel's number n to the Go value; numbers without a mapping
// are kept, so an invalid one still reaches the error message.
func (e enum) toGo(n int64) int64 {
	if e.goOf != nil && n >= 0 && n < int64(len(e.goOf)) {
		return e.goOf[n]
	}
	return n
}

// sentinel maps a Go value back to Sentinel's number (what JSON writes and
// words index); values without a mapping are kept.
func (e enum) sentinel(g int64) int64 {
	for n, v := range e.goOf {
		if v == g {
			return int64(n)
		}
	}
	return g
}

// read returns the enum's number for v.
func (e enum) read(v value) (int64, string) {
	switch v.kind {
	case valString:
		for n, w := range e.words {
			if w != "" && strings.EqualFold(w, v.s) {
				return int64(n), ""
			}
		}
		msg := fmt.Sprintf("%q is not a %s; use %s", v.s, e.what, e.allowed())
		if s := suggest(v.s, e.words); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return 0, msg
	case valInt, valFloat:
		n, msg := asInt(v)
		if msg == "" && (n < 0 || n >= int64(len(e.words)) || e.words[n] == "") {
			msg = fmt.Sprintf("%d is not a %s; use %s", n, e.what, e.allowed())
		}
		return n, msg
	}
	return 0, wrongType(e.allowed(), v)
}

// word returns the name of n, or its number as text when it has none.
func (e enum) word(n int64) string {
	if n >= 0 && n < int64(len(e.words)) && e.words[n] != "" {
		return e.words[n]
	}
	return strconv.FormatInt(n, 10)
}

// allowed lists the values: `"concurrency" (0) or "qps" (1)`.
func (e enum) allowed() string {
	var parts []string
	for n, w := range e.words {
		if w != "" {
			parts = append(parts, fmt.Sprintf("%q (%d)", w, n))
		}
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
