package gen

import (
	"sync"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen/internal/cache"
)

// key returns the cache key of pkg for this generator: the zero key, which
// matches nothing, for a nil cache or a model that cannot be encoded.
func (c *Cache) key(pkg *annotate.Package) cache.Key {
	if c == nil {
		return cache.Key{}
	}
	bp := encodingBuffers.Get().(*[]byte)
	defer encodingBuffers.Put(bp)
	buf, err := encodeModel((*bp)[:0], pkg)
	*bp = buf
	if err != nil {
		return cache.Key{}
	}
	return c.c.Key(buf)
}

// encodeModel appends the cache key's encoding of pkg to buf: the model's
// full canonical encoding, derived in package annotate
// (annotate.AppendModelKey) beside the fingerprint written in every
// generated file, so that both come from one walk of the model's types.
func encodeModel(buf []byte, pkg *annotate.Package) ([]byte, error) {
	return annotate.AppendModelKey(buf, pkg)
}

// encodingBuffers holds *[]byte for the model encodings: several kilobytes
// for ten methods, reused from package to package rather than grown anew
// for each.
var encodingBuffers = sync.Pool{New: func() any { return new([]byte) }}
