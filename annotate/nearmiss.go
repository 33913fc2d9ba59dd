package annotate

import (
	"strings"
)

// nearMiss returns the message for a comment that is meant as a
// //sentinel: directive but is not spelt as one, or "" for any other
// comment. The go toolchain treats only "//word:" with no blank after the
// slashes as a directive (and gofmt moves such lines apart in a doc
// comment), so "// sentinel:resource" is prose to every tool: without this
// check the guard would silently disappear. text is ast.Comment.Text.
//
// Only comments whose first word is "sentinel" (any case), followed by a
// colon and either the word resource or a key=value pair, are looked at,
// so ordinary prose mentioning Sentinel is left alone.
func nearMiss(text string) string {
	if strings.HasPrefix(text, "/*") {
		return blockNearMiss(text)
	}
	if !strings.HasPrefix(text, "//") {
		return ""
	}
	body := text[2:]
	lead := len(body) - len(strings.TrimLeft(body, " \t"))
	body = body[lead:]
	if len(body) < len("sentinel") || !strings.EqualFold(body[:len("sentinel")], "sentinel") {
		return ""
	}
	word := body[:len("sentinel")]
	rest := body[len("sentinel"):]
	gap := len(rest) - len(strings.TrimLeft(rest, " \t"))
	rest = rest[gap:]
	if !strings.HasPrefix(rest, ":") {
		return ""
	}
	rest = rest[1:]
	after := len(rest) - len(strings.TrimLeft(rest, " \t"))
	rest = rest[after:]
	verb := rest
	if i := strings.IndexAny(verb, " \t"); i >= 0 {
		verb = verb[:i]
	}
	if lead == 0 && word == "sentinel" && gap == 0 && after == 0 {
		return "" // correctly spelt: the directive checks judge the rest
	}
	if !strings.EqualFold(verb, "resource") && !strings.Contains(rest, "=") {
		return "" // prose such as "// Sentinel: the library this wraps"
	}
	var wrong []string
	if lead > 0 {
		wrong = append(wrong, "a blank after //")
	}
	if word != "sentinel" {
		wrong = append(wrong, word+" is not lower-case")
	}
	if gap > 0 {
		wrong = append(wrong, "a blank before the colon")
	}
	if after > 0 {
		wrong = append(wrong, "a blank after the colon")
	}
	fix := DirectivePrefix + strings.ToLower(verb)
	if !strings.EqualFold(verb, "resource") {
		fix = ResourceDirective
	}
	return "malformed directive " + quoteComment(text) + ": " + strings.Join(wrong, ", ") +
		"; Go tools read it as an ordinary comment, so nothing would be generated; write " + fix + " (no blanks, lower case)"
}

// blockNearMiss reports a /* */ comment holding a directive: directives
// must be // line comments.
func blockNearMiss(text string) string {
	for line := range strings.SplitSeq(strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/"), "\n") {
		line = strings.TrimLeft(line, " \t*")
		line = strings.TrimPrefix(line, "//")
		line = strings.TrimLeft(line, " \t")
		if len(line) >= len("sentinel:") && strings.EqualFold(line[:len("sentinel:")], "sentinel:") {
			return "directive in a /* */ comment; Go tools read it as an ordinary comment, so nothing would be generated; write it as a line comment: " + ResourceDirective + " ..."
		}
	}
	return ""
}

// quoteComment quotes the start of a comment for a message.
func quoteComment(text string) string {
	const max = 40
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	if len(text) > max {
		text = text[:max] + "..."
	}
	return `"` + text + `"`
}
