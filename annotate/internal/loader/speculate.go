package loader

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// The fast path's second overlap: while go list runs, the targets are also
// type-checked against the listing of the previous run in the
// same directory (which export data files, which files per package). When
// go list then reports the same for everything that was used, and export
// data files are named by the hash of their content, the speculative
// packages are exactly what type-checking after go list would give, and the
// go command's time hides the type-checking too.

// listCacheFile names the listing of one load, under cachedir.Sub("golist")
// ("" when caching is off): a hash of everything that selects what go list
// reports besides the files themselves.
func listCacheFile(cfg Config) string {
	cacheDir, ok := cachedir.Sub("golist")
	if !ok {
		return ""
	}
	parts, ok := configParts(cfg)
	if !ok {
		return ""
	}
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return filepath.Join(cacheDir, hex.EncodeToString(h.Sum(nil)[:16])+".json")
}

// configParts lists everything of cfg that selects what go list reports
// besides the files themselves: the directory, the tags, the previous
// output's name, the patterns and the go command's environment. The
// listing cache and the inputs key (inputKey) both derive from it.
func configParts(cfg Config) ([]string, bool) {
	abs, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, false
	}
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	parts := append([]string{abs, strings.Join(cfg.Tags, ","), cfg.Previous, "--"}, cfg.Patterns...)
	parts = append(parts, "--")
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") {
			parts = append(parts, kv)
		}
	}
	return parts, true
}

// savedListing is a listing as kept in the cache.
type savedListing struct {
	GOARCH   string
	Packages []*listedPackage
}

// readListing returns the listing saved in file, or nil.
func readListing(file string) *packageList {
	if file == "" {
		return nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var saved savedListing
	if json.Unmarshal(data, &saved) != nil || saved.GOARCH == "" {
		return nil
	}
	list := &packageList{byPath: make(map[string]*listedPackage, len(saved.Packages)), all: saved.Packages, goarch: saved.GOARCH}
	for _, p := range saved.Packages {
		list.byPath[p.ImportPath] = p
		if !p.DepOnly {
			list.targets = append(list.targets, p)
		}
	}
	return list
}

// writeListing saves list to file for the next run, whole (a concurrent
// run reads either listing entirely); failing to is no error.
func writeListing(file string, list *packageList) {
	if file == "" {
		return
	}
	data, err := json.Marshal(savedListing{GOARCH: list.goarch, Packages: list.all})
	if err != nil || os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	_ = atomicfile.WriteFile(file, data, 0o644)
}

// sameInputs reports whether checking the targets of now would read the
// same inputs as checking those of was did: the same architecture, the
// same packages with the
// same files and imports, and the same export data for every dependency
// that was read (exportRead).
func sameInputs(was, now *packageList, exportRead []string) bool {
	if was.goarch != now.goarch || len(was.targets) != len(now.targets) {
		return false
	}
	for i, w := range was.targets {
		n := now.targets[i]
		if w.ImportPath != n.ImportPath || w.Name != n.Name || w.Dir != n.Dir ||
			!slices.Equal(w.GoFiles, n.GoFiles) || !slices.Equal(w.Imports, n.Imports) ||
			!sameStringMap(w.ImportMap, n.ImportMap) || goVersion(w) != goVersion(n) {
			return false
		}
	}
	for _, path := range exportRead {
		w, n := was.byPath[path], now.byPath[path]
		if w == nil || n == nil || w.Export != n.Export {
			return false
		}
	}
	return true
}

func sameStringMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

func goVersion(p *listedPackage) string {
	if p.Module == nil {
		return ""
	}
	return p.Module.GoVersion
}
