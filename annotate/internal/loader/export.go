package loader

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// exportImporter supplies the fast path's dependencies from the compiler's
// export data, reading each package's file on first use only. All packages
// share one map, so a type reached through several imports has one
// identity, and the reads are serialized because gcexportdata completes
// packages of that map in place.
type exportImporter struct {
	fset *token.FileSet
	list *packageList

	mu     sync.Mutex
	shared map[string]*types.Package // every package gcexportdata has created, complete or not
	read   map[string]*types.Package // packages whose own export data has been read
}

func newExportImporter(fset *token.FileSet, list *packageList) *exportImporter {
	return &exportImporter{
		fset:   fset,
		list:   list,
		shared: map[string]*types.Package{},
		read:   map[string]*types.Package{},
	}
}

// load returns the complete package with the given resolved import path.
func (imp *exportImporter) load(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil // has no export data
	}
	imp.mu.Lock()
	defer imp.mu.Unlock()
	if pkg, ok := imp.read[path]; ok {
		return pkg, nil
	}
	lp := imp.list.byPath[path]
	if lp == nil || lp.Export == "" {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	f, err := os.Open(lp.Export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// go list -export names compiler archives on this Go release, which only
	// NewReader unwraps (go/packages reads them the same way).
	//lint:ignore SA1019 the replacement cannot read archives yet
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading export data of %s: %w", path, err)
	}
	pkg, err := gcexportdata.Read(r, imp.fset, imp.shared, path)
	if err != nil {
		return nil, fmt.Errorf("reading export data of %s: %w", path, err)
	}
	imp.read[path] = pkg
	return pkg, nil
}
