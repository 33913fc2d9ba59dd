package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestSplitErrors(t *testing.T) {
	a := &Error{Pos: Position{File: "a.toml", Line: 1}, Msg: "a"}
	b := &Error{Pos: Position{File: "b.toml", Line: 2}, Msg: "b"}
	notFound := &fs.PathError{Op: "stat", Path: "gone.toml", Err: fs.ErrNotExist}

	problems, other := SplitErrors(errors.Join(a, errors.Join(notFound, b)))
	if len(problems) != 2 || problems[0] != a || problems[1] != b {
		t.Errorf("problems %v; want [a b]", problems)
	}
	if other == nil || !errors.Is(other, fs.ErrNotExist) || errors.As(other, new(*Error)) {
		t.Errorf("other %v; want the stat error alone", other)
	}

	if problems, other := SplitErrors(errors.Join(a, fmt.Errorf("while reading: %w", b))); len(problems) != 2 || other != nil {
		t.Errorf("rule problems only (one wrapped): %v, %v; want both and no other", problems, other)
	}
	// A wrapper around both keeps its context in other and gives up its
	// rule problem too.
	wrapped := fmt.Errorf("source x: %w", errors.Join(a, notFound))
	if problems, other := SplitErrors(wrapped); len(problems) != 1 || other != wrapped {
		t.Errorf("wrapped mixture: %v, %v; want [a] and the wrapper", problems, other)
	}
	if problems, other := SplitErrors(nil); problems != nil || other != nil {
		t.Errorf("nil: %v, %v", problems, other)
	}
}

// LoadAll's error splits into the invalid rules and the unreadable paths.
func TestSplitLoadAllError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[[flow]]\nresource = \"x\"\ncount = -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadAll(bad, filepath.Join(dir, "missing.toml"))
	problems, other := SplitErrors(err)
	if len(problems) != 1 || problems[0].Pos.Line != 3 {
		t.Errorf("problems %v; want the count on line 3", problems)
	}
	if !errors.Is(other, fs.ErrNotExist) {
		t.Errorf("other %v; want the missing file", other)
	}
}
