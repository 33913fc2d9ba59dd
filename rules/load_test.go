package rules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeRuleFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func flowResourceNames(s Set) []string {
	var out []string
	for _, r := range s.Flow {
		out = append(out, r.Resource)
	}
	return out
}

// A directory contributes its *.toml and *.json files by name, not those of
// subdirectories nor other files; directories and files merge in the order
// given.
func TestLoadAllDirectoriesAndFiles(t *testing.T) {
	dir := t.TempDir()
	writeRuleFile(t, filepath.Join(dir, "b.toml"), "[[flow]]\nresource = 'b'\ncount = 1\n")
	writeRuleFile(t, filepath.Join(dir, "a-flow.json"), `[{"resource": "a", "count": 1}]`)
	writeRuleFile(t, filepath.Join(dir, "c.TOML"), "[[flow]]\nresource = 'c'\ncount = 1\n")
	writeRuleFile(t, filepath.Join(dir, "notes.txt"), "not rules")
	writeRuleFile(t, filepath.Join(dir, "sub", "d.toml"), "[[flow]]\nresource = 'd'\n")
	extra := filepath.Join(t.TempDir(), "extra.rules") // named explicitly: read whatever its extension
	writeRuleFile(t, extra, "[[flow]]\nresource = 'e'\ncount = 1\n[[degrade]]\nresource = 'e'\ntimeWindow = 1\ncount = 1\n")

	s, err := LoadAll(extra, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := flowResourceNames(s), []string{"e", "a", "b", "c"}; !slices.Equal(got, want) {
		t.Fatalf("flow resources = %v, want %v", got, want)
	}
	if len(s.Degrade) != 1 || s.DegradeAt[0] != (Position{File: extra, Line: 4}) {
		t.Errorf("degrade = %+v at %v", s.Degrade, s.DegradeAt)
	}
	if got := s.FlowAt[1]; got != (Position{File: filepath.Join(dir, "a-flow.json"), Line: 1, Path: "[0]"}) {
		t.Errorf("FlowAt[1] = %v", got)
	}
}

// Every file is read; the problems of all of them are reported, and the set
// holds the rules of the files that read cleanly (only those: a file with one
// bad rule gives none).
func TestLoadAllReportsEveryFile(t *testing.T) {
	dir := t.TempDir()
	writeRuleFile(t, filepath.Join(dir, "1.toml"), "[[flow]]\nresource = 'a'\ncount = -1\n")
	writeRuleFile(t, filepath.Join(dir, "2.toml"), "[[flow]]\nresource = 'ok'\ncount = 1\n")
	writeRuleFile(t, filepath.Join(dir, "3-degrade.json"), `[{"resource": "b", "timeWindow": "x"}]`)
	missing := filepath.Join(dir, "missing.toml")

	s, err := LoadAll(dir, missing)
	checkTexts(t, "errors", errorTexts(err), []string{
		filepath.Join(dir, "1.toml") + ":3: count: -1 must be a finite number >= 0",
		filepath.Join(dir, "3-degrade.json") + `:1: [0].timeWindow: want an integer, found string "x"`,
	})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file not reported: %v", err)
	}
	if got := flowResourceNames(s); !slices.Equal(got, []string{"ok"}) || len(s.Degrade) != 0 {
		t.Errorf("partial set: flow %v, %d degrade rules; want only the flow rule of 2.toml", got, len(s.Degrade))
	}
	if len(s.FlowAt) != 1 || s.FlowAt[0] != (Position{File: filepath.Join(dir, "2.toml"), Line: 1}) {
		t.Errorf("FlowAt = %v, want 2.toml:1", s.FlowAt)
	}
}

// Load of one bad file still gives no rules at all.
func TestLoadInvalidFileGivesEmptySet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	writeRuleFile(t, path, "[[flow]]\nresource = 'ok'\n\n[[flow]]\nresource = 'bad'\ncount = -1\n")
	s, err := Load(path)
	if err == nil {
		t.Fatal("no error for count = -1")
	}
	if len(s.Flow) != 0 || s.FlowAt != nil {
		t.Errorf("Load returned rules along with an error: %+v", s)
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v", err)
	}
}
