// Package cachedir says where sentinelgen keeps its caches.
//
// Every cache sentinelgen keeps lives under one root so that it can be found,
// trimmed and deleted as a whole. The root is chosen by the environment
// variable SENTINELGEN_CACHE, read here and nowhere else.
package cachedir

import (
	"os"
	"path/filepath"
)

// Env is the environment variable that chooses the cache root: "off"
// disables every cache, an absolute directory replaces the default
// (sentinelgen under os.UserCacheDir), and empty or unset means the default.
// A relative path disables the caches too, since it would make results
// depend on the working directory.
const Env = "SENTINELGEN_CACHE"

// Root returns the cache root and true, or "" and false when caching is off
// (Env is "off" or relative, or there is no user cache directory).
func Root() (string, bool) {
	dir := os.Getenv(Env)
	switch {
	case dir == "off":
		return "", false
	case dir == "":
		base, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		return filepath.Join(base, "sentinelgen"), true
	case !filepath.IsAbs(dir):
		return "", false
	}
	return dir, true
}

// Sub returns the directory of one cache (for example "golist") under the
// root, or "" and false when caching is off.
func Sub(name string) (string, bool) {
	root, ok := Root()
	if !ok {
		return "", false
	}
	return filepath.Join(root, name), true
}
