package rules

import "fmt"

// maxTOMLDepth bounds how deeply a TOML document may nest arrays and inline
// tables, and how many parts one dotted key may have. A rule document needs
// three levels (flow = [{ clusterConfig = {...} }]) and two-part keys;
// BurntSushi/toml's decoding time grows with the square of either (2,000
// nested inline tables, 12 KB, take about 2 s; a 4 KB dotted key 0.25 s), so
// a document beyond the bound is refused before it is decoded.
const maxTOMLDepth = 32

// checkTOMLDepth scans data once, skipping strings and comments, and returns
// a positioned error when brackets nest, or a key has dots, beyond
// maxTOMLDepth. It does not check syntax: everything else is the decoder's.
func checkTOMLDepth(name string, data []byte) *Error {
	line, depth, dots := 1, 0, 0
	refuse := func(format string) *Error {
		return &Error{Pos: Position{File: name, Line: line}, Msg: fmt.Sprintf(format, maxTOMLDepth)}
	}
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
			dots = 0
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			var lines int
			i, lines = skipTOMLString(data, i)
			line += lines
		case '[', '{':
			depth++
			dots = 0
			if depth > maxTOMLDepth {
				return refuse("TOML nests arrays and inline tables more than %d levels deep; a rule document needs 3 (refused before decoding)")
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
			dots = 0
		case '=', ',':
			dots = 0
		case '.':
			// Outside strings a dot separates key parts, or is the one dot of
			// a float or time value, which the '=' before it reset.
			dots++
			if dots >= maxTOMLDepth {
				return refuse("TOML dotted key has more than %d parts; a rule document needs 2 (refused before decoding)")
			}
		}
	}
	return nil
}

// skipTOMLString returns the index of the last byte of the string that
// starts at data[i] (basic "..." or literal '...', single or triple quoted)
// and the newlines inside it. An unterminated single-line string ends before
// its line's newline, so the line count stays right; the decoder reports it.
func skipTOMLString(data []byte, i int) (end, lines int) {
	q := data[i]
	if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
		for j := i + 3; j < len(data); j++ {
			switch {
			case data[j] == '\n':
				lines++
			case q == '"' && data[j] == '\\':
				if j+1 < len(data) && data[j+1] == '\n' {
					lines++
				}
				j++
			case data[j] == q && j+2 < len(data) && data[j+1] == q && data[j+2] == q:
				j += 2
				// Up to two more quotes belong to the content: """a""""".
				for n := 0; n < 2 && j+1 < len(data) && data[j+1] == q; n++ {
					j++
				}
				return j, lines
			}
		}
		return len(data) - 1, lines
	}
	for j := i + 1; j < len(data); j++ {
		switch {
		case data[j] == '\n':
			return j - 1, lines
		case q == '"' && data[j] == '\\':
			if j+1 < len(data) && data[j+1] != '\n' {
				j++
			}
		case data[j] == q:
			return j, lines
		}
	}
	return len(data) - 1, lines
}
