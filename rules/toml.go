package rules

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/BurntSushi/toml"
)

// tomlKinds are the top-level keys of the native format.
var tomlKinds = func() []string {
	out := make([]string, len(allKinds))
	for i, k := range allKinds {
		out[i] = tomlTable(k)
	}
	return out
}()

// parseTOML reads the native format: [[flow]], [[degrade]], [[paramFlow]],
// [[system]] and [[authority]] arrays of tables. Unknown keys are errors, so a typo cannot silently drop a setting.
func parseTOML(name string, data []byte) (Set, error) {
	if err := checkTOMLDepth(name, data); err != nil {
		return Set{}, err
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Set{}, &Error{Pos: Position{File: name, Line: pe.Position.Line}, Msg: "TOML syntax: " + pe.Message}
		}
		return Set{}, &Error{Pos: Position{File: name}, Msg: "TOML: " + err.Error()}
	}
	b := tomlBuilder{file: name, lines: tomlLines(data)}
	d := &decoder{native: true}
	for _, e := range b.entries(doc, "", Position{File: name}) {
		items, ok := e.val.items, e.val.kind == valArray
		if !slices.Contains(tomlKinds, e.key) {
			msg := "unknown table; the native format has [[flow]], [[degrade]], [[paramFlow]], [[system]] and [[authority]]"
			if sg := suggest(e.key, tomlKinds); sg != "" {
				msg += fmt.Sprintf("; did you mean [[%s]]?", sg)
			}
			d.fail(e.pos, e.key, msg)
			continue
		}
		if !ok {
			d.fail(e.pos, e.key, fmt.Sprintf("must be an array of tables: write [[%s]] above each rule", e.key))
			continue
		}
		for i, item := range items {
			if item.kind != valTable {
				d.fail(item.pos, e.key, fmt.Sprintf("element %d is %s; each rule is a table", i, item.describe()))
				continue
			}
			d.addRule(kindOfTable(e.key), item)
		}
	}
	return d.result()
}

// tomlBuilder turns the toml package's maps into records, with the lines
// tomlLines found.
type tomlBuilder struct {
	file  string
	lines map[tomlPath]int
}

// pos is where path is, or fallback when the scanner did not find it.
func (b tomlBuilder) pos(path tomlPath, fallback Position) Position {
	if line, ok := b.lines[path]; ok {
		return Position{File: b.file, Line: line}
	}
	return fallback
}

// entries returns m's keys in document order (maps lose it): by line, then
// by name.
func (b tomlBuilder) entries(m map[string]any, path tomlPath, at Position) []entry {
	out := make([]entry, 0, len(m))
	for k, v := range m {
		p := path.key(k)
		pos := b.pos(p, at)
		out = append(out, entry{key: k, val: b.value(v, p, pos), pos: pos})
	}
	slices.SortFunc(out, func(x, y entry) int {
		return cmp.Or(cmp.Compare(x.pos.Line, y.pos.Line), cmp.Compare(x.key, y.key))
	})
	return out
}

func (b tomlBuilder) value(v any, path tomlPath, at Position) value {
	switch v := v.(type) {
	case bool:
		return value{kind: valBool, b: v, pos: at}
	case int64:
		return value{kind: valInt, i: v, pos: at}
	case float64:
		return value{kind: valFloat, f: v, pos: at}
	case string:
		return value{kind: valString, s: v, pos: at}
	case map[string]any:
		return value{kind: valTable, table: &record{pos: at, entries: b.entries(v, path, at)}, pos: at}
	case []map[string]any:
		items := make([]value, len(v))
		for i, t := range v {
			p := path.index(i)
			items[i] = b.value(t, p, b.pos(p, at))
		}
		return value{kind: valArray, items: items, pos: at}
	case []any:
		items := make([]value, len(v))
		for i, t := range v {
			p := path.index(i)
			items[i] = b.value(t, p, b.pos(p, at))
		}
		return value{kind: valArray, items: items, pos: at}
	}
	// Dates and times (time.Time): no rule field takes them.
	return value{kind: valOther, pos: at}
}
