package annotate

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An import-path pattern cannot be walked: the previous output is found by
// listing packages instead, with the same result.
func TestLoadImportPathPattern(t *testing.T) {
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
	assert.Contains(t, verbose.String(), "found 1 previous sentinel_gen.go")
}

func TestLoadPatternErrors(t *testing.T) {
	root, err := filepath.Abs(goldenRoot)
	require.NoError(t, err)
	_, _, err = Load(root, []string{"./no_such_case"}, Options{})
	assert.ErrorContains(t, err, "no_such_case")
	_, _, err = Load(root, []string{"./ok_quoted", "./no_such_case"}, Options{})
	assert.Error(t, err, "one bad pattern fails the load")
}
