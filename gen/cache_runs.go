package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"
)

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
	if c == nil || key == "" {
		return ""
	}
	tool, err := c.tool()
	if err != nil || len(tool) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write([]byte{byte(len(tool)), byte(len(tool) >> 8)})
	h.Write(tool)
	h.Write([]byte(key))
	name := hex.EncodeToString(h.Sum(nil))
	return filepath.Join(c.dir, runsSubdir, name[:2], name)
}

// KnownRun reports whether a run of this generator recorded (RecordRun)
// that a load with inputs key needed nothing, and marks the entry used.
// It is the annotate.Options.Known of the command.
func (c *Cache) KnownRun(key string) bool {
	path := c.runPath(key)
	if path == "" {
		return false
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	c.markUsed(path, info.ModTime(), time.Now())
	return true
}

// RecordRun records that the load with inputs key gave no diagnostic and
// that Sync found every generated file up to date. Call it only then: a run
// that wrote a file changed its own inputs, and one with diagnostics must
// report them again. Failing to record only costs a load next time.
func (c *Cache) RecordRun(key string) {
	path := c.runPath(key)
	if path == "" {
		return
	}
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
