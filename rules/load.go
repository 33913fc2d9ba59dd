package rules

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Load reads and parses one rule file. Its format comes from its extension
// (.toml, .json) or its content, a JSON file's kind from its name (e.g.
// "orders-flow.json") or its fields.
func Load(path string) (Set, error) {
	s, err := loadPartial(path)
	if err != nil {
		return Set{}, err
	}
	return s, nil
}

// loadPartial is Load keeping, beside an error, the rules of the file that
// have no problem of their own (see parsePartial).
func loadPartial(path string) (Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Set{}, err
	}
	return parsePartial(Document{Name: path, Data: data})
}

// LoadAll reads files and directories and merges their rules in the order
// given. A directory contributes the *.toml and *.json files directly inside
// it (not in subdirectories), sorted by name. Every file is read even when an
// earlier one fails: the Set holds every rule that has no problem of its
// own, from the files that read cleanly and from those with invalid rules
// too, and the error joins the problems of all of them (unlike Load, which
// returns no rule of a file with an invalid one).
//
// A non-nil error means the set is partial: report it, never Apply it. It
// serves tools that check what they can, such as the linter, which runs its
// checks on the valid rules beside the errors of the rest, so that a file is
// not fixed in two rounds: first its invalid rule, then what the other
// checks find in its valid ones.
func LoadAll(paths ...string) (Set, error) {
	return parseEach(paths, loadPath)
}

// loadPath reads the rule files path stands for (see ruleFiles): the merge of
// their valid rules, and the errors of the others.
func loadPath(path string) (Set, error) {
	files, err := ruleFiles(path)
	if err != nil {
		return Set{}, err
	}
	return parseEach(files, loadPartial)
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
