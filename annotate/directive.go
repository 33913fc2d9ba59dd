package annotate

import (
	"go/token"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/suggest"
)

// DirectivePrefix starts every comment that sentinelgen owns. Only
// ResourceDirective is defined; any other word after the prefix is reported,
// so that a typo such as //sentinel:resouce cannot silently disable a guard.
const DirectivePrefix = "//sentinel:"

// ResourceDirective is the comment text that marks a guarded function or
// method.
const ResourceDirective = "//sentinel:resource"

// The directive keys. Their spelling follows @SentinelResource.
const (
	KeyName            = "name"
	KeyBlockHandler    = "blockHandler"
	KeyFallback        = "fallback"
	KeyDefaultFallback = "defaultFallback"
	KeyIgnore          = "ignore"
	KeyTrace           = "trace"
	KeyEntryType       = "entryType"
	KeyResourceType    = "resourceType"
	// The keys below have no @SentinelResource counterpart: they give the
	// call a deadline and retry its failures within a budget.
	KeyTimeout      = "timeout"
	KeyRetries      = "retries"
	KeyRetryBackoff = "retryBackoff"
	KeyRetryBudget  = "retryBudget"
)

// MaxRetries bounds the directive's retries=.
const MaxRetries = 10

// DefaultRetryBackoff is the first retry's backoff bound when the directive
// has retries= without retryBackoff=.
const DefaultRetryBackoff = 50 * time.Millisecond

// DefaultRetryBudget is the share of calls that may be retried when the
// directive has retries= without retryBudget=.
const DefaultRetryBudget = 0.1

// knownKeys lists the keys in the order the documentation gives them; it is
// also the candidate list for "did you mean" suggestions.
var knownKeys = []string{
	KeyName, KeyBlockHandler, KeyFallback, KeyDefaultFallback,
	KeyIgnore, KeyTrace, KeyEntryType, KeyResourceType,
	KeyTimeout, KeyRetries, KeyRetryBackoff, KeyRetryBudget,
}

// javaKeys maps @SentinelResource attribute names that have a different
// spelling here, so that users coming from Java get a precise hint.
var javaKeys = map[string]string{
	"value":              KeyName,
	"exceptionsToIgnore": KeyIgnore,
	"exceptionsToTrace":  KeyTrace,
	"blockHandlerClass":  KeyBlockHandler,
	"fallbackClass":      KeyFallback,
}

var entryTypes = map[string]EntryType{"out": EntryOut, "in": EntryIn}

var resourceTypes = map[string]ResourceType{
	"common":  ResourceCommon,
	"web":     ResourceWeb,
	"rpc":     ResourceRPC,
	"gateway": ResourceGateway,
	"db":      ResourceDB,
	"cache":   ResourceCache,
	"mq":      ResourceMQ,
}

// Directive is one parsed //sentinel:resource comment. It keeps the position
// of every key and value so that later checks can point at the exact column.
type Directive struct {
	Pos  token.Position // position of the leading "//"
	Args []Arg          // the well-formed key=value pairs with known keys, in source order, first of each key only
}

// Arg is one key=value pair of a directive.
type Arg struct {
	Key      string
	KeyPos   token.Position
	Value    string         // the value, unquoted
	ValuePos token.Position // position of the value's first byte (its opening quote when quoted)
	Quoted   bool           // the value was written as a Go double-quoted string
	raw      string         // the value as written, quotes included
}

// Lookup returns the argument with the given key.
func (d *Directive) Lookup(key string) (Arg, bool) {
	for _, a := range d.Args {
		if a.Key == key {
			return a, true
		}
	}
	return Arg{}, false
}

// ListItem is one comma-separated entry of a list value (ignore, trace).
type ListItem struct {
	Text string
	Pos  token.Position
}

// Items splits a list value at commas, trims blanks around each entry and
// positions each one. Inside a quoted value that contains escapes the exact
// column is unknowable from the unquoted text, so entries then point at the
// value's start.
func (a Arg) Items() []ListItem {
	var items []ListItem
	start := 0
	for i := 0; i <= len(a.Value); i++ {
		if i < len(a.Value) && a.Value[i] != ',' {
			continue
		}
		field := a.Value[start:i]
		trimmed := strings.TrimLeft(field, " \t")
		lead := len(field) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, " \t")
		items = append(items, ListItem{Text: trimmed, Pos: a.valueOffset(start + lead)})
		start = i + 1
	}
	return items
}

// valueOffset returns the position of byte off of the unquoted value.
func (a Arg) valueOffset(off int) token.Position {
	if a.Quoted {
		if a.raw != `"`+a.Value+`"` {
			return a.ValuePos // escapes: unquoted offsets differ from written ones
		}
		off++ // the opening quote
	}
	return shift(a.ValuePos, off)
}

// shift moves a position n bytes to the right on the same line. Columns in
// go/token are byte counts, so this is exact for any UTF-8 text.
func shift(p token.Position, n int) token.Position {
	p.Offset += n
	p.Column += n
	return p
}

// ParseDirective parses the text of one //sentinel:resource comment (as
// ast.Comment.Text gives it, "//" included) found at pos. It checks only what
// needs no type information: the grammar, unknown and duplicate keys, and the
// shape of each value. The returned Directive holds every argument that
// passed those checks, so the type checks can still run on the rest.
//
// The grammar is:
//
//	directive = "//sentinel:resource" { blank arg } [ blank ] .
//	arg       = key "=" value .
//	key       = letter { letter | digit } .
//	value     = bare | quoted .
//	bare      = any characters except blank, '"' and '=', at least one .
//	quoted    = a Go double-quoted string literal, e.g. "a b=c" .
//	blank     = ( " " | "\t" ) { " " | "\t" } .
func ParseDirective(text string, pos token.Position) (*Directive, []Diagnostic) {
	d := &Directive{Pos: pos}
	var diags []Diagnostic
	report := func(p token.Position, format string, args ...any) {
		diags = append(diags, newDiagnostic(p, format, args...))
	}
	if !strings.HasPrefix(text, ResourceDirective) ||
		len(text) > len(ResourceDirective) && !isBlank(text[len(ResourceDirective)]) {
		report(pos, "not a %s directive", ResourceDirective)
		return d, diags
	}
	seen := map[string]token.Position{}
	s := scanner{text: text, i: len(ResourceDirective), base: pos}
	for {
		s.skipBlanks()
		if s.done() {
			break
		}
		arg, ok := s.arg(report)
		if !ok {
			continue
		}
		if !isKnownKey(arg.Key) {
			report(arg.KeyPos, "unknown key %q%s", arg.Key, keyHint(arg.Key))
			continue
		}
		if first, dup := seen[arg.Key]; dup {
			diags = append(diags, Diagnostic{
				Pos:     arg.KeyPos,
				Message: "duplicate key " + arg.Key,
				Related: []RelatedInfo{{Pos: first, Message: "first " + arg.Key + " here"}},
			})
			continue
		}
		seen[arg.Key] = arg.KeyPos
		if problem := checkValueSyntax(arg); problem != "" {
			report(arg.ValuePos, "%s", problem)
			continue
		}
		if bad := listProblems(arg); len(bad) > 0 {
			for _, it := range bad {
				report(it.Pos, "%s", it.Text)
			}
			continue
		}
		d.Args = append(d.Args, arg)
	}
	return d, diags
}

// scanner walks a directive's text byte by byte. Directives are ASCII in
// practice, but quoted values may hold any UTF-8, which byte offsets handle.
type scanner struct {
	text string
	i    int
	base token.Position
}

func (s *scanner) done() bool { return s.i >= len(s.text) }

func (s *scanner) pos(i int) token.Position { return shift(s.base, i) }

func (s *scanner) skipBlanks() {
	for s.i < len(s.text) && isBlank(s.text[s.i]) {
		s.i++
	}
}

// skipWord moves past the rest of a malformed argument so that the next one
// can still be parsed and reported on.
func (s *scanner) skipWord() {
	for s.i < len(s.text) && !isBlank(s.text[s.i]) {
		s.i++
	}
}

// arg reads one key=value pair starting at a non-blank byte.
func (s *scanner) arg(report func(token.Position, string, ...any)) (Arg, bool) {
	keyStart := s.i
	for s.i < len(s.text) && isKeyByte(s.text[s.i]) {
		s.i++
	}
	key := s.text[keyStart:s.i]
	if key == "" {
		report(s.pos(keyStart), "malformed argument %q: want key=value", s.word(keyStart))
		s.skipWord()
		return Arg{}, false
	}
	if s.done() || isBlank(s.text[s.i]) {
		report(s.pos(keyStart), "malformed argument %q: want key=value", key)
		return Arg{}, false
	}
	if s.text[s.i] != '=' {
		report(s.pos(s.i), "malformed argument %q: a key is letters and digits followed by '='", s.word(keyStart))
		s.skipWord()
		return Arg{}, false
	}
	arg := Arg{Key: key, KeyPos: s.pos(keyStart)}
	s.i++ // '='
	valStart := s.i
	arg.ValuePos = s.pos(valStart)
	if s.done() || isBlank(s.text[s.i]) {
		report(arg.ValuePos, "missing value for %s", key)
		return Arg{}, false
	}
	if s.text[s.i] == '"' {
		end := quotedEnd(s.text, s.i)
		if end < 0 {
			report(arg.ValuePos, "unterminated quoted value for %s", key)
			s.i = len(s.text)
			return Arg{}, false
		}
		s.i = end
		v, err := strconv.Unquote(s.text[valStart:end])
		if err != nil {
			report(arg.ValuePos, "malformed quoted value for %s: not a valid Go string", key)
			s.skipWord()
			return Arg{}, false
		}
		if !s.done() && s.text[s.i] == ',' {
			report(s.pos(s.i), "%s", javaCommaForm)
			s.skipWord()
			return Arg{}, false
		}
		if !s.done() && !isBlank(s.text[s.i]) {
			report(s.pos(s.i), "malformed value for %s: want a blank after the closing quote", key)
			s.skipWord()
			return Arg{}, false
		}
		if v == "" {
			report(arg.ValuePos, "missing value for %s", key)
			return Arg{}, false
		}
		arg.Value, arg.Quoted, arg.raw = v, true, s.text[valStart:end]
		return arg, true
	}
	for s.i < len(s.text) && !isBlank(s.text[s.i]) {
		switch s.text[s.i] {
		case '"':
			report(s.pos(s.i), "malformed value for %s: quote the whole value, not a part of it", key)
			s.skipWord()
			return Arg{}, false
		case '=':
			report(s.pos(s.i), "malformed value for %s: a value containing '=' must be quoted", key)
			s.skipWord()
			return Arg{}, false
		}
		s.i++
	}
	arg.Value = s.text[valStart:s.i]
	arg.raw = arg.Value
	if strings.HasSuffix(arg.Value, ",") && key != KeyIgnore && key != KeyTrace {
		report(s.pos(s.i-1), "%s", javaCommaForm)
		return Arg{}, false
	}
	return arg, true
}

// javaCommaForm answers arguments written as @SentinelResource's are,
// value="x", blockHandler="y": the comma would otherwise be read as part of
// a value or reported as a stray character after a quote.
const javaCommaForm = `arguments are separated by blanks, not commas: Java's value="x", blockHandler="y" is written name=x blockHandler=y here`

// word returns the blank-delimited word starting at i, for messages.
func (s *scanner) word(i int) string {
	j := i
	for j < len(s.text) && !isBlank(s.text[j]) {
		j++
	}
	return s.text[i:j]
}

// quotedEnd returns the index just past the closing quote of the string
// literal opening at text[i], or -1 when it is not closed.
func quotedEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func isKeyByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

func isKnownKey(k string) bool {
	for _, known := range knownKeys {
		if k == known {
			return true
		}
	}
	return false
}

// keyHint returns ", did you mean X?" for a misspelt or Java-named key.
func keyHint(key string) string {
	if k, ok := javaKeys[key]; ok {
		if strings.HasSuffix(key, "Class") {
			// The class and the method name become one qualified name.
			return "; the Java attribute " + key + " has no key of its own here: name the function with its package, " + k + "=pkg.Func"
		}
		return "; the Java attribute " + key + " is spelt " + k + " here"
	}
	if k := suggest.Closest(key, knownKeys); k != "" {
		return "; did you mean " + k + "?"
	}
	return ""
}

// checkValueSyntax checks a value's shape for its key and returns a message
// describing the problem, or "".
func checkValueSyntax(a Arg) string {
	switch a.Key {
	case KeyName:
		if strings.TrimSpace(a.Value) != a.Value {
			return "malformed value for name: a resource name may not start or end with blanks"
		}
	case KeyBlockHandler, KeyFallback, KeyDefaultFallback:
		if !isHandlerName(a.Value) {
			return "malformed value for " + a.Key + ": want a name (handler) or a qualified name (pkg.Handler), have " + strconv.Quote(a.Value)
		}
	case KeyEntryType:
		if _, ok := entryTypes[a.Value]; !ok {
			return "malformed value for entryType: want in or out, have " + strconv.Quote(a.Value)
		}
	case KeyResourceType:
		if _, ok := resourceTypes[a.Value]; !ok {
			return "malformed value for resourceType: want one of common, web, rpc, gateway, db, cache, mq, have " + strconv.Quote(a.Value)
		}
	case KeyTimeout:
		if d, err := time.ParseDuration(a.Value); err != nil || d <= 0 {
			return "malformed value for timeout: want a positive duration such as 800ms or 2s, have " + strconv.Quote(a.Value)
		}
	case KeyRetryBackoff:
		if d, err := time.ParseDuration(a.Value); err != nil || d < 0 {
			return "malformed value for retryBackoff: want a duration such as 50ms (0 for none), have " + strconv.Quote(a.Value)
		}
	case KeyRetries:
		if n, err := strconv.Atoi(a.Value); err != nil || n < 1 || n > MaxRetries {
			return "malformed value for retries: want a whole number from 1 to " + strconv.Itoa(MaxRetries) + ", have " + strconv.Quote(a.Value)
		}
	case KeyRetryBudget:
		if f, err := strconv.ParseFloat(a.Value, 64); err != nil || !(f > 0 && f <= 1) {
			return "malformed value for retryBudget: want the share of calls that may be retried, above 0 and at most 1 (0.1 is 10 %), have " + strconv.Quote(a.Value)
		}
	}
	return ""
}

// listProblems checks each entry of an ignore or trace list; the returned
// items carry a message as Text.
func listProblems(a Arg) []ListItem {
	if a.Key != KeyIgnore && a.Key != KeyTrace {
		return nil
	}
	var bad []ListItem
	for _, it := range a.Items() {
		switch {
		case it.Text == "":
			bad = append(bad, ListItem{Pos: it.Pos, Text: "malformed value for " + a.Key + ": empty entry in the list"})
		case !isHandlerName(strings.TrimPrefix(it.Text, "*")):
			bad = append(bad, ListItem{Pos: it.Pos, Text: "malformed entry " + strconv.Quote(it.Text) + " in " + a.Key + ": want Err, pkg.Err, Type, *Type or *pkg.Type"})
		}
	}
	return bad
}

// isHandlerName reports whether s is an identifier or ident.ident.
func isHandlerName(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) > 2 {
		return false
	}
	for _, p := range parts {
		if !token.IsIdentifier(p) {
			return false
		}
	}
	return true
}
