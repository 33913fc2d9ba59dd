package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
)

// Severity says whether a finding must be fixed (Error) or deserves a look
// (Warning). The command exits 1 on errors only.
type Severity uint8

const (
	// Warning marks a rule that works as written but probably not as meant.
	Warning Severity = iota
	// Error marks a rule that cannot work: it is invalid, names nothing, or
	// contradicts another rule.
	Error
)

// String returns "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", uint8(s))
}

// MarshalText writes the String form, so JSON shows the word.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding. Pos is where the offending rule was read, or,
// for problems in the code, the file and line of the Go source.
type Diagnostic struct {
	Pos      rules.Position
	Check    string // the id of the check that found it, e.g. "unknown-resource"
	Severity Severity
	Message  string
	// Suggestion is a replacement the user most likely meant (a resource
	// name for unknown-resource), "" when there is none.
	Suggestion string
	// Related points at other places that explain the finding, such as the
	// declaration of a handler whose signature is wrong.
	Related []Related
}

// Related is a place that explains a finding.
type Related struct {
	Pos     rules.Position
	Message string
}

// String formats d as "file:line: [check] message", the form editors and CI
// annotations pick up, followed by one tab-indented "file:line: message"
// line per related place, as the generator prints its diagnostics.
func (d Diagnostic) String() string {
	s := d.Pos.String() + ": [" + d.Check + "] " + d.Message
	for _, r := range d.Related {
		s += "\n\t" + r.Pos.String() + ": " + r.Message
	}
	return s
}

// jsonDiagnostic is the stable machine form of a Diagnostic.
type jsonDiagnostic struct {
	File       string        `json:"file"`
	Line       int           `json:"line"`
	Path       string        `json:"path"`
	Check      string        `json:"check"`
	Severity   Severity      `json:"severity"`
	Message    string        `json:"message"`
	Suggestion string        `json:"suggestion,omitempty"`
	Related    []jsonRelated `json:"related,omitempty"`
}

// jsonRelated is the machine form of a Related.
type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// MarshalJSON writes d as {file, line, path, check, severity, message,
// suggestion?, related?}: position fields flattened, severity as a word,
// suggestion and related (an array of {file, line, message}) left out when
// there are none.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	var related []jsonRelated
	for _, r := range d.Related {
		related = append(related, jsonRelated{File: r.Pos.File, Line: r.Pos.Line, Message: r.Message})
	}
	return json.Marshal(jsonDiagnostic{
		File: d.Pos.File, Line: d.Pos.Line, Path: d.Pos.Path,
		Check: d.Check, Severity: d.Severity, Message: d.Message, Suggestion: d.Suggestion,
		Related: related,
	})
}

// HasErrors reports whether any of ds has Error severity.
func HasErrors(ds []Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == Error })
}

// sortDiagnostics orders ds by file, line and JSON path, then check and
// message, so output does not depend on the order the checks ran in.
func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			strings.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			strings.Compare(a.Pos.Path, b.Pos.Path),
			strings.Compare(a.Check, b.Check),
			strings.Compare(a.Message, b.Message),
		)
	})
}
