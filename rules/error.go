package rules

import (
	"cmp"
	"errors"
	"slices"
	"strings"
)

// Error is one problem with a rule document, positioned. Parse, Validate and
// LoadAll join several with errors.Join; use errors.As or the Errors function
// to get them back.
type Error struct {
	// Pos is where the rule or field was read.
	Pos Position
	// Field is the document's field name in lowerCamel (e.g. "count",
	// "clusterConfig.flowId"), "" for the whole rule or document.
	Field string
	// Msg says what is wrong and what is allowed.
	Msg string
}

// Error renders e as "rules.toml:12: count: -3 must be a finite number >= 0"
// or, for JSON, "flow.json:7: [2].count: -3 must be ...". The position is left
// out when it is unknown, the field when it is "" or the JSON path already
// ends with it.
func (e *Error) Error() string {
	s := ""
	if !e.Pos.IsZero() {
		s = e.Pos.String() + ": "
	}
	if e.Field != "" && e.Pos.Path != e.Field && !strings.HasSuffix(e.Pos.Path, "."+e.Field) {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// Errors returns every *Error inside err, in order, looking through
// errors.Join trees; nil when there is none.
func Errors(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *Error:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	walk(err)
	return out
}

// joinByLine joins errs (flattening joined ones) in the order of their lines,
// so the problems of one document read top to bottom; errors on the same
// line, or without one, keep their order.
func joinByLine(errs []error) error {
	var flat []error
	for _, err := range errs {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			flat = append(flat, j.Unwrap()...)
		} else if err != nil {
			flat = append(flat, err)
		}
	}
	line := func(err error) int {
		if e, ok := err.(*Error); ok {
			return e.Pos.Line
		}
		return 0
	}
	slices.SortStableFunc(flat, func(a, b error) int { return cmp.Compare(line(a), line(b)) })
	return errors.Join(flat...)
}

// sortByLine orders warnings by line, keeping the order of those on one line.
func sortByLine(ws []*Error) []*Error {
	slices.SortStableFunc(ws, func(a, b *Error) int { return cmp.Compare(a.Pos.Line, b.Pos.Line) })
	return ws
}
