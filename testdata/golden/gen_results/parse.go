// Package results guards methods with several results: a bare block returns
// the zero value of each and the *runtime.BlockError as the error.
package results

import (
	"context"
	"errors"
	"strings"
)

// ErrEmpty is returned for an empty input.
var ErrEmpty = errors.New("empty input")

// Header is a parsed header line.
type Header struct{ Name, Value string }

// Parser parses header lines.
type Parser struct{}

// Split parses "name: value"; ok says whether a colon was found.
//
//sentinel:resource name=results.split
func (p *Parser) Split(ctx context.Context, line string) (h *Header, n int, ok bool, err error) {
	if line == "" {
		return nil, 0, false, ErrEmpty
	}
	name, value, found := strings.Cut(line, ":")
	return &Header{Name: name, Value: strings.TrimSpace(value)}, len(line), found, nil
}

// Fields splits line into fields, with a fallback for failures and blocks.
//
//sentinel:resource name=results.fields fallback=fieldsFallback
func (p *Parser) Fields(ctx context.Context, line string) ([]string, map[string]int, error) {
	if line == "" {
		return nil, nil, ErrEmpty
	}
	fields := strings.Fields(line)
	counts := make(map[string]int)
	for _, f := range fields {
		counts[f]++
	}
	return fields, counts, nil
}

func (p *Parser) fieldsFallback(ctx context.Context, line string, err error) ([]string, map[string]int, error) {
	return []string{"fallback"}, map[string]int{err.Error(): 1}, nil
}
