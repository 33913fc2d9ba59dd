package cache

import "path/filepath"

// runsSubdir holds the run entries, inside the generation cache's
// directory so that Trim sweeps them with the rest.
const runsSubdir = "runs"

// A run entry says: this generator, given a load whose inputs have this
// key (annotate.Options.Keyed: the configuration, every target's listing
// and .go files, the generated ones included, and its imports' export
// data), found no diagnostic and nothing to write. A later run with the
// same key would find the same, so it can stop once go list has run,
// before parsing anything. Like the model entries it is an empty file
// named by a hash, here of the generator's identity and the key.

// runPath is the entry of the load key for this generator, or "" when
// there can be none.
func (c *Cache) runPath(key string) string {
	if key == "" {
		return ""
	}
	name := c.hash([]byte(key))
	if name == "" {
		return ""
	}
	return filepath.Join(c.dir, runsSubdir, name[:2], name)
}

// KnownRun reports whether a run of this generator recorded (RecordRun)
// that a load with inputs key needed nothing, and marks the entry used.
func (c *Cache) KnownRun(key string) bool {
	path := c.runPath(key)
	return path != "" && c.hit(path)
}

// RecordRun records that the load with inputs key gave no diagnostic and
// that nothing had to be written. Failing to record only costs a load next
// time.
func (c *Cache) RecordRun(key string) {
	if path := c.runPath(key); path != "" {
		touch(path)
	}
}
