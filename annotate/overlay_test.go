package annotate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWalkGeneratedFiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		path := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	stale := "// Code generated.\n\npackage %s\n\nfunc broken() { undefined() }\n"
	write("sentinel_gen.go", "package top\n\nvar x = y\n")
	write("a/sentinel_gen.go", "package alpha // comment\n"+stale[len("// Code generated.\n\npackage %s\n"):])
	write("a/b/sentinel_gen.go", "package beta\n")
	write("testdata/sentinel_gen.go", "package skipped\n")
	write("_hidden/sentinel_gen.go", "package skipped\n")
	write(".git/sentinel_gen.go", "package skipped\n")
	write("nested/go.mod", "module nested\n")
	write("nested/sentinel_gen.go", "package skipped\n")
	write("garbage/sentinel_gen.go", "not go at all\n")
	write("a/other.go", "package alpha\n")

	overlay, ok := walkGeneratedFiles(root, []string{"./..."})
	require.True(t, ok)
	assert.Equal(t, map[string][]byte{
		filepath.Join(root, "sentinel_gen.go"):     []byte("package top\n"),
		filepath.Join(root, "a/sentinel_gen.go"):   []byte("package alpha\n"),
		filepath.Join(root, "a/b/sentinel_gen.go"): []byte("package beta\n"),
	}, overlay)

	overlay, ok = walkGeneratedFiles(root, []string{"./a", filepath.Join(root, "a/b")})
	require.True(t, ok)
	assert.Len(t, overlay, 2)
	assert.Contains(t, overlay, filepath.Join(root, "a/sentinel_gen.go"))
	assert.Contains(t, overlay, filepath.Join(root, "a/b/sentinel_gen.go"))

	overlay, ok = walkGeneratedFiles(root, []string{"./a/..."})
	require.True(t, ok)
	assert.Len(t, overlay, 2)

	for _, p := range []string{"example.com/x/...", "all", "./a/.../b"} {
		_, ok := walkGeneratedFiles(root, []string{"./...", p})
		assert.False(t, ok, p)
	}
}
