package rules

import "strconv"

// Position is where a rule or a field was read: a file and line for TOML, a
// file and JSON path for JSON. Rules built in code have the zero Position,
// and Validate gives them a Path naming their place in the Set ("flow[2]").
type Position struct {
	// File is the file name or source name (e.g. "etcd:/sentinel/orders/flow");
	// "" for rules built in code.
	File string
	// Line is the 1-based line, 0 if unknown.
	Line int
	// Path is the JSON path of the element, e.g. "[2].count"; "" for TOML.
	Path string
}

// String renders p as "rules.toml:12", "flow.json: [2].count",
// "flow.json:7: [2].count" when the line is known, and "-" when p is empty.
func (p Position) String() string {
	s := p.File
	if p.Line > 0 {
		if s == "" {
			s = "line " + strconv.Itoa(p.Line)
		} else {
			s += ":" + strconv.Itoa(p.Line)
		}
	}
	switch {
	case p.Path != "" && s != "":
		return s + ": " + p.Path
	case p.Path != "":
		return p.Path
	case s != "":
		return s
	}
	return "-"
}

// IsZero reports whether p says nothing about where a thing was read.
func (p Position) IsZero() bool { return p == Position{} }
