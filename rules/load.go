package rules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Load reads and parses one rule file. Its format comes from its extension
// (.toml, .json) or its content, a JSON file's kind from its name (e.g.
// "orders-flow.json") or its fields.
func Load(path string) (Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Set{}, err
	}
	return Parse(Document{Name: path, Data: data})
}

// LoadAll reads files and directories and merges their rules in the order
// given. A directory contributes the *.toml and *.json files directly inside
// it (not in subdirectories), sorted by name. Every file is read even when an
// earlier one fails; the errors of all of them are joined and the Set is then
// empty.
func LoadAll(paths ...string) (Set, error) {
	var (
		s    Set
		errs []error
	)
	for _, p := range paths {
		files, err := ruleFiles(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			t, err := Load(f)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			s = s.Merge(t)
		}
	}
	if len(errs) > 0 {
		return Set{}, errors.Join(errs...)
	}
	return s, nil
}

// ruleFiles lists the rule files path stands for: itself, or for a
// directory its *.toml and *.json files by name.
func ruleFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path) // sorted by name
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.Type().IsDir() || !slices.Contains([]string{".toml", ".json"}, ext) {
			continue
		}
		files = append(files, filepath.Join(path, e.Name()))
	}
	return files, nil
}
