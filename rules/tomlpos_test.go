package rules

import (
	"strings"
	"testing"
)

func TestTOMLLines(t *testing.T) {
	src := "\ufeff# header\r\n" + // 1
		"[[flow]]\r\n" + // 2
		"\"\\u0063ount\" = 1\r\n" + // 3: escaped quoted key
		"'refResource' = 'x'\r\n" + // 4: literal key
		"cluster . 'a b' . c = \"\\\"]\" # comment\r\n" + // 5: dotted key with blanks
		"s = \"\"\"\r\nline\\\r\n  \"\"\"\"\"\r\n" + // 6-8: multi-line string ending in quotes
		"after = 1\r\n" + // 9
		"[[flow]]\r\n" + // 10
		"[flow.sub]\r\n" + // 11
		"k = [ 1,\r\n 2 ]\r\n" + // 12-13
		"[[degrade]]\r\n" + // 14
		"t = 1979-05-27 07:32:00Z\r\n" + // 15: a date with a space
		"u = 2\r\n" // 16
	lines := tomlLines([]byte(src))
	at := func(parts ...any) tomlPath {
		var p tomlPath
		for _, x := range parts {
			switch x := x.(type) {
			case string:
				p = p.key(x)
			case int:
				p = p.index(x)
			}
		}
		return p
	}
	want := map[tomlPath]int{
		at("flow"):                           2,
		at("flow", 0):                        2,
		at("flow", 0, "count"):               3,
		at("flow", 0, "refResource"):         4,
		at("flow", 0, "cluster"):             5,
		at("flow", 0, "cluster", "a b", "c"): 5,
		at("flow", 0, "s"):                   6,
		at("flow", 0, "after"):               9,
		at("flow", 1):                        10,
		at("flow", 1, "sub"):                 11,
		at("flow", 1, "sub", "k"):            12,
		at("flow", 1, "sub", "k", 1):         13,
		at("degrade", 0):                     14,
		at("degrade", 0, "t"):                15,
		at("degrade", 0, "u"):                16,
	}
	for p, line := range want {
		if got, ok := lines[p]; !ok || got != line {
			t.Errorf("%q: line %d (found %v), want %d", strings.NewReplacer(pathSep, ".", indexSep, "#").Replace(string(p)), got, ok, line)
		}
	}
}

// On something it does not expect, the scanner stops instead of looping or
// reading past the end; what it found so far stays.
func TestTOMLLinesStopsOnTheUnexpected(t *testing.T) {
	for _, src := range []string{"[[flow]]\na = \"unterminated", "[[flow", "a = {", "a = [1,", "= 1", "a = \"\\q\"", "a = '''x", "[[a]]\nb = \"\\u12\""} {
		lines := tomlLines([]byte(src))
		if strings.HasPrefix(src, "[[flow]]") && lines[tomlPath("flow")] != 1 {
			t.Errorf("%q: lines before the problem lost: %v", src, lines)
		}
	}
}
