package rules

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The toml package does not say where keys are, so tomlLines walks the
// document's structure once more to find the line of every table header,
// key and array element. It runs only on documents the toml package accepted,
// so it can skip over values without checking them; on anything unexpected it
// stops, and the lines not found yet fall back to the enclosing rule's line.

// tomlPath names a place in a TOML document: keys joined by pathSep, array
// elements as indexSep plus the index. The separators are control bytes,
// which a key can only hold through an escape in a quoted key; such a key
// could at worst be given another key's line, never another rule.
type tomlPath string

const (
	pathSep  = "\x1f"
	indexSep = "\x1e"
)

func (p tomlPath) key(k string) tomlPath {
	if p == "" {
		return tomlPath(k)
	}
	return p + pathSep + tomlPath(k)
}

func (p tomlPath) index(i int) tomlPath {
	return p + tomlPath(indexSep+strconv.Itoa(i))
}

// tomlLines returns the 1-based line of every header, key and array element
// of src by path.
func tomlLines(src []byte) map[tomlPath]int {
	s := &tomlScanner{src: src, line: 1, lines: map[tomlPath]int{}, arrays: map[tomlPath]int{}}
	s.document()
	return s.lines
}

type tomlScanner struct {
	src    []byte
	i      int
	line   int
	lines  map[tomlPath]int
	arrays map[tomlPath]int // tables defined so far by each [[header]]
	table  tomlPath         // the table that key/value pairs go to
	bad    bool             // stop: something this scanner does not expect
}

func (s *tomlScanner) peek(off int) byte {
	if s.i+off < len(s.src) {
		return s.src[s.i+off]
	}
	return 0
}

func (s *tomlScanner) done() bool { return s.bad || s.i >= len(s.src) }

func (s *tomlScanner) advance() {
	if s.src[s.i] == '\n' {
		s.line++
	}
	s.i++
}

func (s *tomlScanner) mark(p tomlPath, line int) {
	if _, ok := s.lines[p]; !ok {
		s.lines[p] = line
	}
}

// skipBlank skips spaces and tabs.
func (s *tomlScanner) skipBlank() {
	for !s.done() && (s.peek(0) == ' ' || s.peek(0) == '\t') {
		s.i++
	}
}

// skipSpace skips blanks, newlines and comments.
func (s *tomlScanner) skipSpace() {
	for !s.done() {
		switch s.peek(0) {
		case ' ', '\t', '\r', '\n':
			s.advance()
		case '#':
			for !s.done() && s.peek(0) != '\n' {
				s.i++
			}
		default:
			return
		}
	}
}

func (s *tomlScanner) expect(c byte) {
	if s.peek(0) != c {
		s.bad = true
		return
	}
	s.i++
}

func (s *tomlScanner) document() {
	if strings.HasPrefix(string(s.src[:min(3, len(s.src))]), "\ufeff") {
		s.i = 3
	}
	for s.skipSpace(); !s.done(); s.skipSpace() {
		start := s.i
		if s.peek(0) == '[' {
			s.header()
		} else {
			line := s.line
			parts := s.key()
			s.skipBlank()
			s.expect('=')
			s.skipBlank()
			s.value(s.markKey(s.table, parts, line))
		}
		if s.i == start {
			s.bad = true
		}
	}
}

// markKey records line for a dotted key's every prefix and returns its path.
func (s *tomlScanner) markKey(base tomlPath, parts []string, line int) tomlPath {
	for _, k := range parts {
		base = base.key(k)
		s.mark(base, line)
	}
	return base
}

// header reads [table] or [[array.of.tables]], making it the current table.
func (s *tomlScanner) header() {
	line := s.line
	array := s.peek(1) == '['
	s.i++
	if array {
		s.i++
	}
	s.skipBlank()
	parts := s.key()
	s.skipBlank()
	s.expect(']')
	if array {
		s.expect(']')
	}
	if s.bad || len(parts) == 0 {
		s.bad = true
		return
	}
	var p tomlPath
	for j, k := range parts {
		p = p.key(k)
		last := j == len(parts)-1
		if array && last {
			n := s.arrays[p]
			s.arrays[p] = n + 1
			s.mark(p, line)
			p = p.index(n)
		} else if n, ok := s.arrays[p]; ok {
			// A header inside an array of tables extends its last table.
			p = p.index(n - 1)
		}
		s.mark(p, line)
	}
	s.table = p
}

// key reads a possibly dotted, possibly quoted key.
func (s *tomlScanner) key() []string {
	var parts []string
	for !s.done() {
		s.skipBlank()
		switch s.peek(0) {
		case '"':
			s.i++
			parts = append(parts, s.basicString())
		case '\'':
			s.i++
			parts = append(parts, s.literalString())
		default:
			start := s.i
			for !s.done() && !strings.ContainsRune(" \t\r\n=.[]\"'#,{}", rune(s.peek(0))) {
				s.i++
			}
			if s.i == start {
				s.bad = true
				return parts
			}
			parts = append(parts, string(s.src[start:s.i]))
		}
		s.skipBlank()
		if s.peek(0) != '.' {
			return parts
		}
		s.i++
	}
	return parts
}

// value skips one value, recording the lines of what is inside tables and
// arrays.
func (s *tomlScanner) value(p tomlPath) {
	switch {
	case strings.HasPrefix(string(s.src[s.i:min(s.i+3, len(s.src))]), `"""`):
		s.i += 3
		s.multilineString('"')
	case strings.HasPrefix(string(s.src[s.i:min(s.i+3, len(s.src))]), `'''`):
		s.i += 3
		s.multilineString('\'')
	case s.peek(0) == '"':
		s.i++
		s.basicString()
	case s.peek(0) == '\'':
		s.i++
		s.literalString()
	case s.peek(0) == '[':
		s.array(p)
	case s.peek(0) == '{':
		s.inlineTable(p)
	default: // number, boolean, date: up to the end of the value
		start := s.i
		for !s.done() && !strings.ContainsRune(",]}\r\n#", rune(s.peek(0))) {
			s.i++
		}
		if s.i == start {
			s.bad = true
		}
	}
}

func (s *tomlScanner) array(p tomlPath) {
	s.i++ // [
	for n := 0; ; n++ {
		s.skipSpace()
		if s.done() || s.peek(0) == ']' {
			break
		}
		s.mark(p.index(n), s.line)
		s.value(p.index(n))
		s.skipSpace()
		if s.peek(0) != ',' {
			break
		}
		s.i++
	}
	s.expect(']')
}

// inlineTable reads { k = v, ... }, allowing the newlines and trailing comma
// of TOML 1.1.
func (s *tomlScanner) inlineTable(p tomlPath) {
	s.i++ // {
	for {
		s.skipSpace()
		if s.done() || s.peek(0) == '}' {
			break
		}
		line := s.line
		parts := s.key()
		s.skipBlank()
		s.expect('=')
		s.skipSpace()
		if s.done() {
			break
		}
		s.value(s.markKey(p, parts, line))
		s.skipSpace()
		if s.peek(0) != ',' {
			break
		}
		s.i++
	}
	s.expect('}')
}

// basicString reads the rest of a "..." string and returns its value.
func (s *tomlScanner) basicString() string {
	var b strings.Builder
	for !s.done() {
		c := s.peek(0)
		switch {
		case c == '"':
			s.i++
			return b.String()
		case c == '\\':
			s.escape(&b)
		case c == '\n':
			s.bad = true
			return b.String()
		default:
			b.WriteByte(c)
			s.i++
		}
	}
	s.bad = true
	return b.String()
}

// simpleEscapes are TOML's one-letter escapes (\e is TOML 1.1's).
var simpleEscapes = map[byte]byte{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'e': 0x1b, '"': '"', '\\': '\\'}

// escape reads one escape sequence of a basic string.
func (s *tomlScanner) escape(b *strings.Builder) {
	c := s.peek(1)
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		s.i += 2
		return
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if digits == 0 || s.i+2+digits > len(s.src) {
		s.bad = true
		return
	}
	n, err := strconv.ParseUint(string(s.src[s.i+2:s.i+2+digits]), 16, 32)
	if err != nil {
		s.bad = true
		return
	}
	b.WriteRune(rune(n))
	if !utf8.ValidRune(rune(n)) {
		s.bad = true
	}
	s.i += 2 + digits
}

func (s *tomlScanner) literalString() string {
	start := s.i
	for !s.done() && s.peek(0) != '\'' && s.peek(0) != '\n' {
		s.i++
	}
	v := string(s.src[start:s.i])
	s.expect('\'')
	return v
}

// multilineString skips the rest of a multi-line string, basic or literal
// (three quote characters q open and close it). The closing delimiter may be
// followed by up to two more quotes, which belong to the content.
func (s *tomlScanner) multilineString(q byte) {
	for !s.done() {
		c := s.peek(0)
		if c == '\\' && q == '"' {
			s.advance()
			if !s.done() {
				s.advance()
			}
			continue
		}
		if c == q && s.peek(1) == q && s.peek(2) == q {
			s.i += 3
			for k := 0; k < 2 && s.peek(0) == q; k++ {
				s.i++
			}
			return
		}
		s.advance()
	}
	s.bad = true
}
