package gen

import (
	"github.com/sentinelgen/sentinelgen/gen/internal/cache"
	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// CacheEnv is the environment variable that configures the caches:
// cachedir.Env, which documents it.
const CacheEnv = cachedir.Env

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
	c *cache.Cache // the entries, the run records and the housekeeping
}

// OpenCache returns the cache under cachedir.Root, or nil when caching is
// off. It starts reading the running executable's identity (see NewCache)
// in the background right away, so that it overlaps with loading.
func OpenCache() *Cache {
	c := cache.Open()
	if c == nil {
		return nil
	}
	return &Cache{c: c}
}

// NewCache returns a cache whose root is dir for the generator identified
// by toolID: bytes that change whenever the generator's code does (OpenCache
// uses the executable's Go build ID, or its SHA-256). Entries of one
// generator never answer for another, so rebuilding sentinelgen invalidates
// everything.
func NewCache(dir string, toolID []byte) *Cache {
	return &Cache{c: cache.New(dir, toolID)}
}

// entries returns the mechanism behind c; nil (which caches nothing) for a
// nil c.
func (c *Cache) entries() *cache.Cache {
	if c == nil {
		return nil
	}
	return c.c
}

// KnownRun reports whether a run of this generator recorded (RecordRun)
// that a load with inputs key needed nothing, and marks the entry used.
// It is the annotate.Options.Known of the command.
func (c *Cache) KnownRun(key string) bool {
	return c.entries().KnownRun(key)
}

// RecordRun records that the load with inputs key gave no diagnostic and
// that Sync found every generated file up to date. Call it only then: a run
// that wrote a file changed its own inputs, and one with diagnostics must
// report them again. Failing to record only costs a load next time.
func (c *Cache) RecordRun(key string) {
	c.entries().RecordRun(key)
}

// Trim removes the files under the cache root unused for a month, unless
// that was done within the last day; most calls cost one small file read.
// The command calls it after Sync. A nil cache has nothing to trim.
func (c *Cache) Trim() {
	c.entries().Trim()
}
