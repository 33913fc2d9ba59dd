// Package cache is the mechanism behind gen.Cache: the on-disk entries that
// let the generator skip work whose result it already knows, and the
// housekeeping of every sentinelgen cache under the root.
//
// What it buys: Sync skips rendering and formatting a package whose
// generated file is what the model gave last time (a model entry, see
// Cache.Key), and the command skips parsing and type-checking altogether
// when a load with the same inputs needed nothing (a run entry, see
// Cache.KnownRun). What it costs: one stat per package or run, the
// generator's identity read once per process (toolid.go), and a sweep of
// the root at most once a day (trim.go).
//
// Every entry is an empty file named by hashes, so nothing can be torn by a
// crash or a concurrent writer, and every key starts with the identity of
// the generator binary, so entries of one build never answer for another.
// The cache never changes a result: any failure (no entry, an unreadable
// directory, no identity) is a miss, and a failed write only costs the work
// next time.
//
// The package knows nothing of annotate's model: the caller encodes the
// model (gen's modelkey.go) and passes the bytes to Cache.Key.
//
// Each concern has its own file: cache.go (the root, model entries),
// runs.go (run entries), trim.go (marking entries used, the sweep) and
// toolid.go (the running generator's identity).
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// Subdir is the generation cache's directory under the cache root.
const Subdir = "gen"

// entryPerm is the mode of the entries and of the sweep's stamp: as
// readable as the generated files.
const entryPerm = 0o644

// Cache is a generation cache: its root, where its entries live, and the
// identity of the generator whose entries it reads and writes. A nil *Cache
// is valid and caches nothing.
type Cache struct {
	root string                 // the cache root, which Trim sweeps whole
	dir  string                 // where the entries live
	tool func() ([]byte, error) // identity of the generator, computed once
}

// Open returns the cache under cachedir.Root for the running executable,
// or nil when caching is off. It starts reading the executable's identity
// in the background right away, so that it overlaps with the caller's
// loading.
func Open() *Cache {
	root, ok := cachedir.Root()
	if !ok {
		return nil
	}
	tool := sync.OnceValues(executableID)
	go tool()
	return &Cache{root: root, dir: filepath.Join(root, Subdir), tool: tool}
}

// New returns a cache whose root is root for the generator identified by
// toolID: bytes that change whenever the generator's code does.
func New(root string, toolID []byte) *Cache {
	id := bytes.Clone(toolID)
	return &Cache{root: root, dir: filepath.Join(root, Subdir), tool: func() ([]byte, error) { return id, nil }}
}

// Key names the model entries of one model encoding for one generator. The
// zero Key names none: nothing matches it and storing under it does
// nothing.
type Key struct {
	hex string
}

// Valid reports whether k names entries.
func (k Key) Valid() bool { return k.hex != "" }

// String returns the key's hash in hex, or "" for the zero Key.
func (k Key) String() string { return k.hex }

// Key returns the key of a model whose canonical encoding is model, for
// this generator, or the zero Key when there can be none (a nil cache, a
// generator without an identity).
func (c *Cache) Key(model []byte) Key {
	return Key{hex: c.hash(model)}
}

// hash returns the hex SHA-256 of the generator's identity, with its
// length, followed by data; "" when the cache is nil or has no identity.
func (c *Cache) hash(data []byte) string {
	if c == nil {
		return ""
	}
	tool, err := c.tool()
	if err != nil || len(tool) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write([]byte{byte(len(tool)), byte(len(tool) >> 8)})
	h.Write(tool)
	h.Write(data)
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

// path is the entry saying that k gave an output of hash sum: 256
// subdirectories keep each small.
func (c *Cache) path(k Key, sum [sha256.Size]byte) string {
	return filepath.Join(c.dir, k.hex[:2], k.hex+"-"+hex.EncodeToString(sum[:]))
}

// Matches reports whether the cache records content as the output of k,
// and marks the entry used.
func (c *Cache) Matches(k Key, content []byte) bool {
	if c == nil || !k.Valid() {
		return false
	}
	return c.hit(c.path(k, sha256.Sum256(content)))
}

// Store records out as the output of k. Failing to store only costs the
// work next time, so errors are dropped.
func (c *Cache) Store(k Key, out []byte) {
	if c == nil || !k.Valid() {
		return
	}
	touch(c.path(k, sha256.Sum256(out)))
}

// hit reports whether path is an entry (a regular file), and marks it used.
func (c *Cache) hit(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	markUsed(path, info.ModTime(), time.Now())
	return true
}

// touch creates the empty entry at path unless it exists. An entry has no
// content, so there is nothing a crash or a concurrent writer could leave
// half-written and nothing to sync: a lost entry costs the work once.
func touch(path string) {
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, entryPerm); err == nil {
		f.Close()
	}
}
