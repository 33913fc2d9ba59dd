package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// parseJSON reads Sentinel's own JSON: an array of rules of one kind, as a
// Java service keeps it in Nacos, or an object {"flow":[...],"degrade":[...]}.
// Fields Sentinel has and the runtime has not are ignored with a warning.
func parseJSON(name string, data []byte, kind Kind) (Set, error) {
	if k := gatewayKindOf(name, kind, data); k != KindAuto { // gateway.go
		return parseGatewayJSON(name, data, k)
	}
	if kind == KindAuto {
		if gw, rest, ok, err := splitGatewayObject(name, data); err != nil {
			return Set{}, err
		} else if ok {
			s, err := parseRuleJSON(name, rest, kind)
			return s.Merge(gw), err
		}
	}
	return parseRuleJSON(name, data, kind)
}

// parseRuleJSON is parseJSON for the kinds other than the gateway's.
func parseRuleJSON(name string, data []byte, kind Kind) (Set, error) {
	if kind != KindAuto && !slices.Contains(allKinds, kind) {
		return Set{}, &Error{Pos: Position{File: name}, Msg: fmt.Sprintf("rule kind %q is not supported; use one of %s", kind, kindList())}
	}
	top, warns, err := readJSON(name, data)
	if err != nil {
		return Set{}, err
	}
	d := &decoder{warns: warns}
	var groups []jsonGroup
	switch top.kind {
	case valArray:
		if len(top.items) == 0 {
			return Set{}, nil
		}
		k, err := jsonKind(name, kind, top)
		if err != nil {
			return Set{}, err
		}
		groups = append(groups, jsonGroup{k, top})
	case valTable:
		for _, e := range top.table.entries {
			k := kindOfJSONKey(e.key)
			switch {
			case slices.Contains(gatewayKinds, Kind(e.key)): // read by splitGatewayObject
			case k == KindAuto:
				msg := fmt.Sprintf("unknown key %q ignored; the object form has %s", e.key, kindList())
				if sg := suggest(e.key, kindNames()); sg != "" {
					msg += fmt.Sprintf("; did you mean %q?", sg)
				}
				d.warn(e.val.pos, "", msg)
			case e.val.kind == valNull:
			case e.val.kind != valArray:
				d.fail(e.val.pos, "", fmt.Sprintf("want an array of %s rules, found %s", k, e.val.describe()))
			default:
				groups = append(groups, jsonGroup{k, e.val})
			}
		}
	default:
		return Set{}, &Error{Pos: top.pos, Msg: "want an array of Sentinel rules, or an object {\"flow\": [...], \"degrade\": [...], ...}; found " + top.describe()}
	}

	for _, g := range groups {
		for _, item := range g.rules.items {
			if item.kind != valTable {
				d.fail(item.pos, "", "want a rule object, found "+item.describe())
				continue
			}
			d.addRule(g.kind, item)
		}
	}
	return d.result()
}

// jsonGroup is one array of rules of a known kind.
type jsonGroup struct {
	kind  Kind
	rules value
}

// jsonKind decides the kind of a Sentinel array: as given, else from the
// document's name, else from keys only one kind of rule has.
func jsonKind(name string, kind Kind, top value) (Kind, error) {
	if kind != KindAuto {
		return kind, nil
	}
	if k := kindFromName(name); k != KindAuto {
		return k, nil
	}
	found := KindAuto
	for _, item := range top.items {
		if item.kind != valTable {
			continue
		}
		k := kindOfRecord(item.table)
		if k == KindAuto {
			continue
		}
		if found != KindAuto && k != found {
			return "", &Error{Pos: item.pos, Msg: fmt.Sprintf("the array mixes %s and %s rules; keep one kind per document, or use {%q: [...], %q: [...]}", found, k, found, k)}
		}
		found = k
	}
	if found == KindAuto {
		return "", &Error{Pos: top.pos, Msg: "cannot tell which kind of rules these are: put its name (" + kindList() + ") in the document's name, or set its Kind"}
	}
	return found, nil
}

// maxJSONDepth bounds nesting; rules need three levels.
const maxJSONDepth = 64

// jsonReader builds values from a JSON document, giving each its path and
// line.
type jsonReader struct {
	file     string
	dec      *json.Decoder
	newlines []int // offsets of '\n', for lines
	warns    []*Error
}

// readJSON parses data into a value tree, with warnings about repeated keys.
func readJSON(name string, data []byte) (value, []*Error, error) {
	r := &jsonReader{file: name, dec: json.NewDecoder(bytes.NewReader(data))}
	r.dec.UseNumber()
	for i, c := range data {
		if c == '\n' {
			r.newlines = append(r.newlines, i)
		}
	}
	v, err := r.value("", 0)
	if err != nil {
		return value{}, nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		offset := int(r.dec.InputOffset()) // just after the extra token's first byte
		return value{}, nil, &Error{Pos: r.at(offset, ""), Msg: "JSON syntax at column " + strconv.Itoa(r.column(offset-1)) + ": unexpected data after the top-level value"}
	}
	return v, r.warns, nil
}

// at is the position of the byte at offset.
func (r *jsonReader) at(offset int, path string) Position {
	return Position{File: r.file, Line: sort.SearchInts(r.newlines, offset) + 1, Path: path}
}

// column is the 1-based column, in bytes, of the byte at offset.
func (r *jsonReader) column(offset int) int {
	line := sort.SearchInts(r.newlines, offset) // newlines before offset
	if line == 0 {
		return offset + 1
	}
	return offset - r.newlines[line-1]
}

// syntaxError positions a decoder error with its line and column: a
// document kept on one line, as stores often keep them, needs the column.
func (r *jsonReader) syntaxError(err error) error {
	offset := int(r.dec.InputOffset())
	col := offset // the end of the document
	var se *json.SyntaxError
	if errors.As(err, &se) {
		offset, col = int(se.Offset)-1, int(se.Offset) // the offending byte
	}
	msg := err.Error()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		msg = "unexpected end of document"
	}
	return &Error{Pos: r.at(max(offset, 0), ""), Msg: "JSON syntax at column " + strconv.Itoa(r.column(max(col, 0))) + ": " + msg}
}

func (r *jsonReader) value(path string, depth int) (value, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return value{}, r.syntaxError(err)
	}
	// The token just read ends at InputOffset, on the line it started on:
	// JSON tokens hold no raw newlines.
	pos := r.at(int(r.dec.InputOffset())-1, path)
	if depth > maxJSONDepth {
		return value{}, &Error{Pos: pos, Msg: "JSON nested too deeply"}
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			return r.array(path, pos, depth)
		}
		return r.object(path, pos, depth)
	case json.Number:
		if n, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
			return value{kind: valInt, i: n, pos: pos}, nil
		}
		f, _ := strconv.ParseFloat(string(tok), 64) // out of range gives ±Inf, which validation refuses
		return value{kind: valFloat, f: f, pos: pos}, nil
	case string:
		return value{kind: valString, s: tok, pos: pos}, nil
	case bool:
		return value{kind: valBool, b: tok, pos: pos}, nil
	}
	return value{kind: valNull, pos: pos}, nil
}

func (r *jsonReader) array(path string, pos Position, depth int) (value, error) {
	v := value{kind: valArray, pos: pos}
	for r.dec.More() {
		item, err := r.value(path+"["+strconv.Itoa(len(v.items))+"]", depth+1)
		if err != nil {
			return value{}, err
		}
		v.items = append(v.items, item)
	}
	if _, err := r.dec.Token(); err != nil {
		return value{}, r.syntaxError(err)
	}
	return v, nil
}

// object reads an object; a repeated key keeps its last value, as Sentinel's
// fastjson does, with a warning.
func (r *jsonReader) object(path string, pos Position, depth int) (value, error) {
	rec := &record{pos: pos}
	for r.dec.More() {
		tok, err := r.dec.Token()
		if err != nil {
			return value{}, r.syntaxError(err)
		}
		key, _ := tok.(string) // the decoder only returns strings as object keys
		keyPos := r.at(int(r.dec.InputOffset())-1, jsonPath(path, key))
		val, err := r.value(keyPos.Path, depth+1)
		if err != nil {
			return value{}, err
		}
		e := entry{key: key, val: val, pos: keyPos}
		if i := indexOfKey(rec.entries, key); i >= 0 {
			rec.entries = append(rec.entries[:i], rec.entries[i+1:]...)
			r.warns = append(r.warns, &Error{Pos: keyPos, Field: key, Msg: "repeated key; the last value is used"})
		}
		rec.entries = append(rec.entries, e)
	}
	if _, err := r.dec.Token(); err != nil {
		return value{}, r.syntaxError(err)
	}
	return value{kind: valTable, table: rec, pos: pos}, nil
}

func indexOfKey(entries []entry, key string) int {
	for i, e := range entries {
		if e.key == key {
			return i
		}
	}
	return -1
}

// jsonPath appends key to path: ".count", or `["odd key"]` for keys that are
// not identifiers.
func jsonPath(path, key string) string {
	for i, c := range key {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return path + "[" + strconv.Quote(key) + "]"
		}
	}
	if key == "" {
		return path + `[""]`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// kindNames are the Sentinel JSON kind names, in Set's order.
func kindNames() []string {
	out := make([]string, len(allKinds))
	for i, k := range allKinds {
		out[i] = string(k)
	}
	return out
}

// kindList is kindNames quoted for messages: "flow", "degrade", ... or
// "authority".
func kindList() string {
	q := make([]string, len(allKinds))
	for i, k := range allKinds {
		q[i] = strconv.Quote(string(k))
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
