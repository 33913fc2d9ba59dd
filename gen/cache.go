package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
)

// CacheEnv is the environment variable that configures the generation
// cache: "off" disables it, an absolute directory replaces the default
// (sentinelgen under os.UserCacheDir), empty or unset means the default.
const CacheEnv = "SENTINELGEN_CACHE"

// Cache lets Sync skip rendering a package whose generated file is already
// right. Rendering and formatting a file costs milliseconds; a package's
// model, hashed, costs microseconds. The cache maps the hash of (generator
// binary, package model) to the hash of the output that pair gave. When the
// file on disk hashes to that value it is what Generate would return, and
// nothing is rendered. Anything else (no entry, a different hash, a model
// that cannot be fingerprinted, an unreadable cache) renders, so the cache
// can make a run faster but never change its result.
//
// Like the go command's build cache it lives outside the repository and may
// be deleted at any time. A nil *Cache is valid and caches nothing.
type Cache struct {
	dir  string
	tool func() ([]byte, error) // identity of the generator, computed once
}

// OpenCache returns the cache configured by CacheEnv, or nil when it is
// off or there is no user cache directory. It starts hashing the running
// executable (its identity, see NewCache) in the background right away, so
// that the hashing overlaps with loading the packages.
func OpenCache() *Cache {
	dir := os.Getenv(CacheEnv)
	switch {
	case dir == "off":
		return nil
	case dir == "":
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "sentinelgen")
	case !filepath.IsAbs(dir):
		return nil // a relative path would depend on the working directory
	}
	tool := sync.OnceValues(executableID)
	go tool()
	return &Cache{dir: dir, tool: tool}
}

// NewCache returns a cache in dir for the generator identified by toolID:
// bytes that change whenever the generator's code does (OpenCache uses the
// SHA-256 of the executable). Entries of one generator never answer for
// another, so rebuilding sentinelgen invalidates everything.
func NewCache(dir string, toolID []byte) *Cache {
	id := bytes.Clone(toolID)
	return &Cache{dir: dir, tool: func() ([]byte, error) { return id, nil }}
}

// executableID hashes the running executable's content.
func executableID() ([]byte, error) {
	f, err := openExecutable()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// openExecutable opens the file the process runs. On Linux /proc/self/exe
// is that file even when a new build has since been installed under its
// name (go install renames over it); hashing the new one would file this
// binary's outputs under the other's identity. Elsewhere the path is the
// best there is.
func openExecutable() (*os.File, error) {
	if goruntime.GOOS == "linux" {
		if f, err := os.Open("/proc/self/exe"); err == nil {
			return f, nil
		}
	}
	path, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return os.Open(path)
}

// cacheKey names the entry of a package model; ok is false when the model
// cannot be cached.
type cacheKey struct {
	hex string
	ok  bool
}

// key returns the key of pkg for this generator.
func (c *Cache) key(pkg *annotate.Package) cacheKey {
	if c == nil {
		return cacheKey{}
	}
	tool, err := c.tool()
	if err != nil || len(tool) == 0 {
		return cacheKey{}
	}
	model, err := modelFingerprint(pkg)
	if err != nil {
		return cacheKey{}
	}
	h := sha256.New()
	h.Write(tool)
	h.Write(model[:])
	return cacheKey{hex: hex.EncodeToString(h.Sum(nil)), ok: true}
}

// path is where the entry of k lives: 256 subdirectories keep each small.
func (c *Cache) path(k cacheKey) string {
	return filepath.Join(c.dir, k.hex[:2], k.hex)
}

// matches reports whether the cache holds k and content is the output it
// records.
func (c *Cache) matches(k cacheKey, content []byte) bool {
	if c == nil || !k.ok {
		return false
	}
	want, ok := c.lookup(k)
	if !ok {
		return false
	}
	have := sha256.Sum256(content)
	return have == want
}

// lookup returns the output hash recorded for k, and marks the entry used.
func (c *Cache) lookup(k cacheKey) (sum [sha256.Size]byte, ok bool) {
	path := c.path(k)
	f, err := os.Open(path)
	if err != nil {
		return sum, false
	}
	defer f.Close()
	// An entry is the hex hash and a newline; anything else (a torn or
	// foreign file) is no entry. One byte more than that shows a longer file.
	var data [2*sha256.Size + 2]byte
	n, _ := io.ReadFull(f, data[:])
	if n != 2*sha256.Size+1 || data[n-1] != '\n' {
		return sum, false
	}
	if _, err := hex.Decode(sum[:], data[:n-1]); err != nil {
		return sum, false
	}
	if info, err := f.Stat(); err == nil {
		c.markUsed(path, info.ModTime(), time.Now())
	}
	return sum, true
}

// store records out as the output of k. Failing to store only costs a
// render next time, so errors are dropped.
func (c *Cache) store(k cacheKey, out []byte) {
	if c == nil || !k.ok {
		return
	}
	sum := sha256.Sum256(out)
	if have, ok := c.lookup(k); ok && have == sum {
		return
	}
	path := c.path(k)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	entry := make([]byte, 0, 2*sha256.Size+1)
	entry = hex.AppendEncode(entry, sum[:])
	entry = append(entry, '\n')
	// Through a temporary file and a rename, as the generated files: two
	// concurrent runs may store the same entry, and a reader must never
	// see half of one.
	_ = atomicfile.WriteFile(path, entry, generatedFilePerm)
}
