package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// staleVariants finds the generated files in the packages' directories
// that no model is for: the per-constraint files of a build constraint no
// directive file carries any more, or all of them once a package's
// directives are no longer constrained. They are deleted, or only listed
// with opts.Check. A file under such a name that does not start with
// Header is the user's and is left alone.
func staleVariants(pkgs []*annotate.Package, opts SyncOptions) ([]Change, error) {
	wanted := map[string][]string{} // dir -> file names models are for
	var dirs []string
	for _, p := range pkgs {
		if _, seen := wanted[p.Dir]; !seen {
			dirs = append(dirs, p.Dir)
		}
		wanted[p.Dir] = append(wanted[p.Dir], fileName(p))
	}
	var changes []Change
	var errs []error
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !annotate.IsGeneratedFile(name) || slices.Contains(wanted[dir], name) {
				continue
			}
			path := filepath.Join(dir, name)
			if !startsWithHeader(path) {
				continue
			}
			changes = append(changes, Change{Path: path, Kind: LeftOver})
			if opts.Log != nil {
				fmt.Fprintf(opts.Log, "sentinelgen: %s: %s\n", path, leftOverVerb(opts))
			}
			if !opts.Check {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	return changes, errors.Join(errs...)
}

func leftOverVerb(opts SyncOptions) string {
	if opts.Check {
		return "left over"
	}
	return "removed left-over file"
}

// startsWithHeader reports whether the file's first line is Header.
func startsWithHeader(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(Header)+1)
	if _, err := io.ReadFull(f, buf); err != nil {
		return false
	}
	return bytes.Equal(buf, []byte(Header+"\n"))
}
