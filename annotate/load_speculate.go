package annotate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The fast path's second overlap: while go list runs, the targets are also
// type-checked and checked against the listing of the previous run in the
// same directory (which export data files, which files per package). When
// go list then reports the same for everything that was used, and export
// data files are named by the hash of their content, the speculative
// results are exactly what checking after go list would give, and the
// go command's time hides the type-checking too.

// listCacheEnv names the cache directory shared with gen's cache: a path,
// "off" for none, or empty for sentinelgen under os.UserCacheDir.
const listCacheEnv = "SENTINELGEN_CACHE"

// listCacheDir is where listings are kept, or "" for nowhere.
func listCacheDir() string {
	dir := os.Getenv(listCacheEnv)
	switch {
	case dir == "off":
		return ""
	case dir == "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "sentinelgen")
	case !filepath.IsAbs(dir):
		return ""
	}
	return filepath.Join(dir, "golist")
}

// listCacheFile names the listing of one load: a hash of everything that
// selects what go list reports besides the files themselves.
func listCacheFile(cacheDir, dir string, patterns []string, opts Options) string {
	if cacheDir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	h := sha256.New()
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	parts := append([]string{abs, strings.Join(opts.Tags, ","), "--"}, patterns...)
	parts = append(parts, "--")
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") {
			parts = append(parts, kv)
		}
	}
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return filepath.Join(cacheDir, hex.EncodeToString(h.Sum(nil)[:16])+".json")
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
	var pkgs []*listedPackage
	if json.Unmarshal(data, &pkgs) != nil {
		return nil
	}
	list := &packageList{byPath: make(map[string]*listedPackage, len(pkgs)), all: pkgs}
	for _, p := range pkgs {
		list.byPath[p.ImportPath] = p
		if !p.DepOnly {
			list.targets = append(list.targets, p)
		}
	}
	return list
}

// writeListing saves list to file for the next run; failing to is no error.
func writeListing(file string, list *packageList) {
	if file == "" {
		return
	}
	data, err := json.Marshal(list.all)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	// Written aside and renamed, so that a concurrent run reads either
	// listing whole.
	tmp, err := os.CreateTemp(filepath.Dir(file), "listing-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// sameInputs reports whether checking the targets of now would read the
// same inputs as checking those of was did: the same packages with the
// same files and imports, and the same export data for every dependency
// that was read (exportRead).
func sameInputs(was, now *packageList, exportRead []string) bool {
	if len(was.targets) != len(now.targets) {
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
