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

// LoadAll keeps the valid rules of a file that has invalid ones, with their
// positions, so that a linter checks them in the same run; Load and Parse
// still return nothing beside an error.
func TestLoadAllKeepsTheValidRulesOfAnInvalidFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.toml")
	doc := "[[flow]]\nresource = \"bad\"\ncount = -1\n\n" +
		"[[flow]]\nresource = \"good\"\ncount = 5\n\n" +
		"[[degrade]]\nresource = \"bad\"\ngrade = \"slowRatio\"\ncount = 500\nslowRatioThreshold = 2\ntimeWindow = 5\n\n" +
		"[[degrade]]\nresource = \"good\"\ngrade = \"errorRatio\"\ncount = 0.5\ntimeWindow = 5\n\n" +
		"[[flow]]\nresource = \"bad\"\ncount = 1\ncount_typo = 2\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadAll(path)
	if problems, other := SplitErrors(err); len(problems) != 3 || other != nil {
		t.Fatalf("errors %v, %v; want the three invalid rules' problems", problems, other)
	}
	if len(set.Flow) != 1 || set.Flow[0].Resource != "good" || set.FlowAt[0].Line != 5 {
		t.Errorf("flow %v at %v; want the valid rule of line 5", set.Flow, set.FlowAt)
	}
	if len(set.Degrade) != 1 || set.Degrade[0].Resource != "good" || set.DegradeAt[0].Line != 16 {
		t.Errorf("degrade %v at %v; want the valid rule of line 16", set.Degrade, set.DegradeAt)
	}
	if s, err := Load(path); err == nil || len(s.Flow)+len(s.Degrade) != 0 {
		t.Errorf("Load: %d rules, error %v; want none beside the error", len(s.Flow)+len(s.Degrade), err)
	}
}
