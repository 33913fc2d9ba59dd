package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a caller's record of inputs keys, as Config.Known and
// Config.Keyed see it.
type recorder struct {
	known map[string]bool
	last  string
}

func (r *recorder) config(dir string) Config {
	r.last = ""
	return Config{
		Dir:      dir,
		Patterns: []string{"./svc"}, // dep is seen through its export data alone
		Previous: "sentinel_gen.go",
		Known:    func(k string) bool { return r.known[k] },
		Keyed:    func(k string) { r.last = k },
	}
}

// A load whose inputs the caller knows parses and type-checks nothing,
// neither while go list runs nor after (counted through Work); a change to
// a dependency's exported type, to a target's file, to a file the build
// leaves out, or to the tags makes it load again, with a new key.
// Not parallel: Work counts the whole process.
func TestKnownInputsParseNothing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/known\n\ngo 1.26.0\n",
		"dep/dep.go": "package dep\n\n// T is used by svc.\ntype T struct{ A int }\n",
		// f is unexported, like most handlers: svc's own export data leaves it
		// out, so only dep's export data shows dep.T changing.
		"svc/svc.go": "package svc\n\nimport \"example.com/known/dep\"\n\nfunc f(t dep.T) int { return t.A }\n\nvar _ = f\n",
		"svc/off.go": "//go:build never\n\npackage svc\n",
	})
	r := &recorder{known: map[string]bool{}}
	load := func(tags ...string) (Route, string) {
		t.Helper()
		cfg := r.config(dir)
		cfg.Tags = tags
		pkgs, route, err := Load(cfg)
		require.NoError(t, err)
		if route == RouteKnown {
			assert.Empty(t, pkgs)
		}
		return route, r.last
	}

	route, first := load()
	require.Equal(t, RouteFast, route)
	require.NotEmpty(t, first, "a fast load is keyed")
	route, again := load()
	require.Equal(t, first, again, "the same inputs give the same key")
	require.Equal(t, RouteFast, route, "nothing is known yet")

	r.known[first] = true
	parsed, checked := Work()
	for run := range 2 { // the second run predicts from the listing the first saved
		route, _ = load()
		assert.Equal(t, RouteKnown, route, "run %d", run)
	}
	p2, c2 := Work()
	assert.Equal(t, parsed, p2, "files parsed by known loads")
	assert.Equal(t, checked, c2, "packages type-checked by known loads")

	edits := []struct {
		name string
		file string
		from string
		to   string
		tags []string
	}{
		{"dependency's exported type", "dep/dep.go", "A int", "A int\n\tB string", nil},
		{"target file", "svc/svc.go", "return t.A", "return int(t.A) + 1", nil},
		{"constrained file", "svc/off.go", "package svc", "package svc\n\n// Never built.\nvar X = 1", nil},
		{"tags", "", "", "", []string{"extra"}},
	}
	keys := map[string]string{"": first}
	for _, e := range edits {
		if e.file != "" {
			path := filepath.Join(dir, e.file)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Contains(t, string(data), e.from)
			require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), e.from, e.to, 1)), 0o644))
		}
		parsed, _ := Work()
		route, key := load(e.tags...)
		assert.Equal(t, RouteFast, route, e.name)
		p, _ := Work()
		assert.Greater(t, p, parsed, "%s: files parsed again", e.name)
		for was, k := range keys {
			assert.NotEqual(t, k, key, "%s: key equals that after %q", e.name, was)
		}
		keys[e.name] = key
	}
}

// A listing the fast route cannot load is not keyed: Keyed is not called.
func TestIneligibleLoadIsNotKeyed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module example.com/broken\n\ngo 1.26.0\n",
		"svc/a.go": "package svc\n\nvar X int = \"no\"\n",
	})
	r := &recorder{known: map[string]bool{}}
	_, route, err := Load(r.config(dir))
	require.NoError(t, err)
	assert.Equal(t, RoutePackages, route)
	assert.Empty(t, r.last)
}
