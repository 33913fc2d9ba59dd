package loader

import (
	"go/ast"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// prefetch parses the Go files of the directories that patterns name while
// go list runs, so that the fast path's parsing overlaps the go command's
// work instead of following it. It guesses the files from the directory
// tree alone; go list has the last word: a file parsed here that it does
// not list (excluded by build constraints) is dropped, and one it lists
// that was not parsed here (named by an import-path pattern, or not
// reached in time) is parsed afterwards.
type prefetch struct {
	stop atomic.Bool
	wg   sync.WaitGroup
	mu   sync.Mutex
	done map[string]parsedFile // by absolute file name
}

// parsedFile is the outcome of parsing one file.
type parsedFile struct {
	file *ast.File
	err  error
}

// startPrefetch starts parsing into fset the non-test Go files below the
// directory patterns among cfg.Patterns.
func startPrefetch(fset *token.FileSet, cfg Config) *prefetch {
	pf := &prefetch{done: map[string]parsedFile{}}
	names := make(chan string, 64)
	pf.wg.Go(func() {
		defer close(names)
		seen := map[string]bool{} // patterns may overlap, as ./... and ./x do
		for _, p := range cfg.Patterns {
			if pf.stop.Load() {
				return
			}
			walkPattern(cfg.Dir, p, func(name string) bool {
				if !seen[name] {
					seen[name] = true
					names <- name
				}
				return !pf.stop.Load()
			})
		}
	})
	for range runtime.GOMAXPROCS(0) {
		pf.wg.Go(func() {
			for name := range names {
				if pf.stop.Load() {
					continue // drain, so that the walker is not blocked
				}
				f, err := parseFile(fset, name, cfg)
				pf.mu.Lock()
				pf.done[name] = parsedFile{f, err}
				pf.mu.Unlock()
			}
		})
	}
	return pf
}

// wait returns the files parsed once all are.
func (pf *prefetch) wait() map[string]parsedFile {
	pf.wg.Wait()
	return pf.done
}

// finish stops parsing and returns the files parsed so far.
func (pf *prefetch) finish() map[string]parsedFile {
	pf.stop.Store(true)
	pf.wg.Wait()
	return pf.done
}

// walkPattern calls visit with the absolute name of each Go file that the
// go command would consider for pattern, a directory (".", "./x", an
// absolute path) optionally followed by "/...", until visit returns false.
// Other patterns (import paths) yield nothing.
func walkPattern(dir, pattern string, visit func(name string) bool) {
	root, recursive := strings.CutSuffix(pattern, "/...")
	if pattern == "..." {
		root, recursive = ".", true
	}
	if !filepath.IsAbs(root) && root != "." && root != ".." &&
		!strings.HasPrefix(root, "./") && !strings.HasPrefix(root, "../") {
		return
	}
	if !filepath.IsAbs(root) {
		base := dir
		if base == "" {
			base = "."
		}
		root = filepath.Join(base, root)
	}
	root, err := filepath.Abs(root)
	if err != nil || strings.Contains(root, "...") {
		return
	}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fs.SkipDir
		}
		if d.IsDir() {
			if path == root {
				return nil
			}
			if !recursive || skippedDir(path, d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !visit(path) {
			return fs.SkipAll
		}
		return nil
	})
}

// skippedDir reports whether ./... leaves out the directory: as the go
// command does in module mode, those named testdata or vendor or starting
// with . or _, and the roots of other modules.
func skippedDir(path, name string) bool {
	if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
		return true
	}
	_, err := os.Stat(filepath.Join(path, "go.mod"))
	return err == nil
}
