// Package relpath shortens file names for people: the one rule by which
// diagnostics, catalogues and change lists name files relative to a
// directory.
package relpath

import (
	"path/filepath"
	"strings"
)

// Below returns file relative to dir when file is an absolute name below
// dir, and file unchanged otherwise (dir empty, file relative, or outside
// dir, where a ../ path would be longer to read than the name itself).
func Below(dir, file string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}
