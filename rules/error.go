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
	problems, _ := SplitErrors(err)
	return problems
}

// SplitErrors separates an error of Parse, Validate or LoadAll into the
// problems with rules (every *Error inside it, in order, looking through
// errors.Join trees and wrapping) and the rest joined: what kept a file from
// being read at all, such as a path that does not exist. other is nil when
// every error is a rule's problem; a tool can then report the problems and
// go on with the partial set LoadAll returned, and must stop otherwise.
func SplitErrors(err error) (problems []*Error, other error) {
	var others []error
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *Error:
			problems = append(problems, e)
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			// The problems inside a wrapper are found as in a join; when
			// something else is inside too, the wrapper is kept whole in
			// other, with the context it adds.
			inner, innerOther := SplitErrors(e.Unwrap())
			problems = append(problems, inner...)
			if innerOther != nil {
				others = append(others, err)
			}
		default:
			others = append(others, err)
		}
	}
	walk(err)
	if len(others) == 1 {
		return problems, others[0] // as it was, not in a join of one
	}
	return problems, errors.Join(others...)
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
