package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// CacheEnv is the environment variable that configures the caches:
// cachedir.Env, which documents it.
const CacheEnv = cachedir.Env

// cacheSubdir is the generation cache's directory under the cache root.
const cacheSubdir = "gen"

// Cache lets Sync skip rendering a package whose generated file is already
// right. Rendering and formatting a file costs milliseconds; encoding a
// package's model and hashing it, microseconds. An entry says: the
// generator identified by toolID, given a model with this encoding, wrote
// this output. It is an empty file named by two hashes, the key's (tool
// identity and model encoding, see encodeModel) and the output's, so a
// lookup is one stat of the name the model and the file on disk give: a
// file on disk that is not exactly what Generate would return names no
// entry. Anything else (no entry, a model that cannot be encoded, an
// unreadable cache) renders, so the cache can make a run faster but never
// change its result.
//
// Like the go command's build cache it lives outside the repository (under
// cachedir.Root) and may be deleted at any time. A nil *Cache is valid and
// caches nothing.
type Cache struct {
	root string                 // the cache root, which Trim sweeps whole
	dir  string                 // where the entries live
	tool func() ([]byte, error) // identity of the generator, computed once
}

// OpenCache returns the cache under cachedir.Root, or nil when caching is
// off. It starts reading the running executable's identity (see NewCache)
// in the background right away, so that it overlaps with loading.
func OpenCache() *Cache {
	root, ok := cachedir.Root()
	if !ok {
		return nil
	}
	tool := sync.OnceValues(executableID)
	go tool()
	return &Cache{root: root, dir: filepath.Join(root, cacheSubdir), tool: tool}
}

// NewCache returns a cache whose root is dir for the generator identified
// by toolID: bytes that change whenever the generator's code does (OpenCache
// uses the executable's Go build ID, or its SHA-256). Entries of one
// generator never answer for another, so rebuilding sentinelgen invalidates
// everything.
func NewCache(dir string, toolID []byte) *Cache {
	id := bytes.Clone(toolID)
	return &Cache{root: dir, dir: filepath.Join(dir, cacheSubdir), tool: func() ([]byte, error) { return id, nil }}
}

// cacheKey names the entries of a package model; ok is false when the
// model cannot be cached.
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
	bp := encodingBuffers.Get().(*[]byte)
	defer encodingBuffers.Put(bp)
	// The tool's identity first, with its length, then the model.
	buf := append(append((*bp)[:0], byte(len(tool)), byte(len(tool)>>8)), tool...)
	buf, err = encodeModel(buf, pkg)
	*bp = buf
	if err != nil {
		return cacheKey{}
	}
	sum := sha256.Sum256(buf)
	return cacheKey{hex: hex.EncodeToString(sum[:]), ok: true}
}

// path is the entry saying that k gave an output of hash sum: 256
// subdirectories keep each small.
func (c *Cache) path(k cacheKey, sum [sha256.Size]byte) string {
	return filepath.Join(c.dir, k.hex[:2], k.hex+"-"+hex.EncodeToString(sum[:]))
}

// matches reports whether the cache records content as the output of k,
// and marks the entry used.
func (c *Cache) matches(k cacheKey, content []byte) bool {
	if c == nil || !k.ok {
		return false
	}
	path := c.path(k, sha256.Sum256(content))
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	c.markUsed(path, info.ModTime(), time.Now())
	return true
}

// store records out as the output of k. An entry has no content, so there
// is nothing a crash or a concurrent writer could leave half-written and
// nothing to sync: a lost entry costs one render. Failing to store only
// costs a render next time, so errors are dropped.
func (c *Cache) store(k cacheKey, out []byte) {
	if c == nil || !k.ok {
		return
	}
	path := c.path(k, sha256.Sum256(out))
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, generatedFilePerm); err == nil {
		f.Close()
	}
}
