package annotate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Import-path patterns work as directory patterns do, previous output
// included.
func TestLoadImportPathPattern(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(goldenRoot)
	require.NoError(t, err)
	var verbose bytes.Buffer
	pkgs, diags, err := Load(root, []string{goldenModule + "ok_stale_generated/..."}, Options{Verbose: &verbose})
	require.NoError(t, err)
	assert.Empty(t, diags)
	require.Len(t, pkgs, 2)
	assert.Equal(t, goldenModule+"ok_stale_generated", pkgs[0].Path)
	assert.Len(t, pkgs[0].Resources, 2)
	assert.Equal(t, goldenModule+"ok_stale_generated/client", pkgs[1].Path)
	assert.Empty(t, pkgs[1].Resources, "packages without resources are returned too")
	assert.Contains(t, verbose.String(), "leaving out 1 previous sentinel_gen.go")
}

func TestLoadPatternErrors(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(goldenRoot)
	require.NoError(t, err)
	_, _, err = Load(root, []string{"./no_such_case"}, Options{})
	assert.ErrorContains(t, err, "no_such_case")
	_, _, err = Load(root, []string{"./ok_quoted", "./no_such_case"}, Options{})
	assert.Error(t, err, "one bad pattern fails the load")
}

// Build tags are true everywhere, as for go build; a file with a custom
// tag no -tags names is checked too, and generated for under its tag.
func TestLoadTags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":   "module example.com/tags\n\ngo 1.26.0\n",
		"plain.go": "package tags\n\n//sentinel:resource\nfunc Plain() error { return nil }\n",
		"special.go": "//go:build special\n\npackage tags\n\n" +
			"//sentinel:resource fallback=missing\nfunc Special() error { return nil }\n",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	for _, tags := range [][]string{nil, {"special"}} {
		pkgs, diags, err := Load(dir, []string{"."}, Options{Tags: tags})
		require.NoError(t, err)
		assert.Empty(t, pkgs, "tags %v", tags)
		if assert.Len(t, diags, 1, "tags %v", tags) {
			assert.Equal(t, "special.go:5:30: fallback missing not found in package tags", diags[0].Format(dir))
		}
	}

	fixed := strings.Replace(files["special.go"], " fallback=missing", "", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "special.go"), []byte(fixed), 0o644))
	pkgs, diags, err := Load(dir, []string{"."}, Options{})
	require.NoError(t, err)
	assert.Empty(t, diags)
	var got []string
	for _, p := range pkgs {
		got = append(got, fmt.Sprintf("%s [%s] %d", p.File, p.Constraint, len(p.Resources)))
	}
	assert.Equal(t, []string{"sentinel_gen.go [!special] 1", "sentinel_gen_special.go [special] 2"}, got)

	// With -tags special the tag holds everywhere: one unconstrained file.
	pkgs, diags, err = Load(dir, []string{"."}, Options{Tags: []string{"special"}})
	require.NoError(t, err)
	assert.Empty(t, diags)
	require.Len(t, pkgs, 1)
	assert.Equal(t, GeneratedFileName, pkgs[0].File)
	assert.Empty(t, pkgs[0].Constraint)
	assert.Len(t, pkgs[0].Resources, 2)
}

// A directory of test files only is a package without files: it yields no
// model (gen would have no directory to write to) and no diagnostic.
func TestLoadTestOnlyPackage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/testonly\n\ngo 1.26.0\n",
		"x.go":            "package x\n",
		"e2e/e2e_test.go": "package e2e\n",
	}
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	pkgs, diags, err := Load(dir, []string{"./..."}, Options{})
	require.NoError(t, err)
	assert.Empty(t, diags)
	require.Len(t, pkgs, 1)
	assert.Equal(t, "example.com/testonly", pkgs[0].Path)
	assert.Equal(t, dir, pkgs[0].Dir)
}

// A package written for unix and windows only (as go.etcd.io/bbolt is)
// does not compile for plan9 or js with or without sentinelgen: those
// platforms get no generated file, and no diagnostic, while unix and
// windows get theirs.
func TestLoadSkipsPlatformsThePackageIsNotWrittenFor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/lock\n\ngo 1.26.0\n",
		"db.go":           "package lock\n\nfunc Open() error { return lockFile() }\n",
		"lock_unix.go":    "//go:build unix\n\npackage lock\n\n//sentinel:resource\nfunc lockFile() error { return nil }\n",
		"lock_windows.go": "package lock\n\n//sentinel:resource\nfunc lockFile() error { return nil }\n",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	pkgs, diags, err := Load(dir, []string{"."}, Options{})
	require.NoError(t, err)
	assert.Empty(t, diags)
	var got []string
	for _, p := range pkgs {
		got = append(got, fmt.Sprintf("%s [%s] %d", p.File, p.Constraint, len(p.Resources)))
	}
	assert.Equal(t, []string{"sentinel_gen_unix.go [unix] 1", "sentinel_gen_windows.go [windows] 1"}, got)
}
