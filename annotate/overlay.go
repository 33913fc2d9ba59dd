package annotate

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// walkGeneratedFiles finds GeneratedFileName in the directories that
// directory patterns denote, following the go command's rules for "...":
// directories named testdata or starting with "." or "_" are skipped, and so
// are nested modules. ok is false when a pattern is not a directory pattern,
// or "..." appears other than as the last element.
//
// Blanking a file of a directory that is not loaded (excluded by build
// constraints, say) is harmless: the overlay only matters for loaded files.
func walkGeneratedFiles(dir string, patterns []string) (overlay map[string][]byte, ok bool) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, false
		}
		dir = wd
	}
	type root struct {
		path      string
		recursive bool
	}
	var roots []root
	for _, p := range patterns {
		if !isDirectoryPattern(p) {
			return nil, false
		}
		r := root{path: p}
		if p == "..." || strings.HasSuffix(p, "/...") {
			r.path, r.recursive = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"), true
		}
		if strings.Contains(r.path, "...") {
			return nil, false
		}
		if !filepath.IsAbs(r.path) {
			r.path = filepath.Join(dir, r.path)
		}
		roots = append(roots, r)
	}
	overlay = map[string][]byte{}
	for _, r := range roots {
		if !r.recursive {
			addGenerated(overlay, filepath.Join(r.path, GeneratedFileName))
			continue
		}
		_ = filepath.WalkDir(r.path, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable parts are the go command's to report
			}
			if d.IsDir() {
				if path != r.path && skipDir(path, d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Name() == GeneratedFileName {
				addGenerated(overlay, path)
			}
			return nil
		})
	}
	return overlay, true
}

// isDirectoryPattern reports whether p names directories rather than import
// paths: ".", "..", "./x", "../x" or an absolute path, possibly ending in "...".
func isDirectoryPattern(p string) bool {
	return p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p)
}

// skipDir reports whether "./..." leaves a directory out.
func skipDir(path, name string) bool {
	if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}

// addGenerated adds an overlay entry holding only the file's own package
// clause, when the file exists and has one.
func addGenerated(overlay map[string][]byte, path string) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		return
	}
	overlay[path] = []byte("package " + f.Name.Name + "\n")
}
