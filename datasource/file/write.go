package file

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Write implements datasource.WritableSource: it replaces the file's rules
// with s, atomically. It encodes s in the file's own format (by extension,
// else by its current content, else TOML), checks that the bytes read back
// as s, writes them to a temporary file in the same directory, syncs it,
// gives it the old file's permissions and renames it over the file, so a
// reader sees the old rules or the new ones, never a partial file (and a
// Source watching the file reads the new one at once). A symlink is followed
// and its target replaced. When the file already holds s (compared as rules,
// not bytes) nothing is written, which keeps a person's formatting and
// comments and stops a Watcher from reading back its own write as a change.
func (f *Source) Write(ctx context.Context, s rules.Set) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	target := f.path
	if resolved, err := filepath.EvalSymlinks(f.path); err == nil {
		target = resolved
	}
	old, readErr := os.ReadFile(target)
	if readErr == nil {
		if cur, err := rules.Parse(rules.Document{Name: f.path, Data: old}); err == nil && cur.Equal(s) {
			return nil
		}
	}
	data, err := f.encode(s, old)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		mode = info.Mode().Perm()
	}
	return atomicfile.WriteFile(target, data, mode)
}

// encode renders s as the file should hold it and checks the round trip, so
// a set the file's format cannot carry (e.g. degrade rules in a JSON file
// whose name says "flow") is an error instead of a wrong file.
func (f *Source) encode(s rules.Set, old []byte) ([]byte, error) {
	format := rules.Document{Name: f.path, Data: old}.ResolvedFormat()
	data, err := rules.Encode(s, format)
	if err != nil {
		return nil, fmt.Errorf("%s: encoding rules: %w", f.path, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// An empty file reads as a write in progress; say "no rules" instead.
		if format == rules.FormatJSON {
			data = []byte("[]\n")
		} else {
			data = []byte("# no rules\n")
		}
	}
	back, err := rules.Parse(rules.Document{Name: f.path, Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s: encoded rules do not read back: %w", f.path, err)
	}
	if !back.Equal(s) {
		return nil, fmt.Errorf("%s: encoded rules read back differently (does the file name's kind match the rules?)", f.path)
	}
	return data, nil
}
