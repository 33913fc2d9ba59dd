package annotate

import (
	"go/build/constraint"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// File names constrain as go/build reads them: the words after the first
// _, the last one or two of them, _test aside.
func TestNameConstraint(t *testing.T) {
	tests := map[string]string{
		"store.go":                "",
		"store_linux.go":          "linux",
		"store_linux_test.go":     "linux",
		"store_windows_amd64.go":  "windows && amd64",
		"store_arm64.go":          "arm64",
		"linux.go":                "",      // no _: the whole name is not a suffix
		"linux_amd64.go":          "amd64", // the word before the first _ is ignored
		"sentinel_gen_linux.go":   "linux", // why variantFile checks its names
		"sentinel_gen_x_build.go": "",
		"/a/b_c/x_darwin.go":      "darwin",
	}
	for name, want := range tests {
		got := ""
		if x := nameConstraint(name); x != nil {
			got = x.String()
		}
		assert.Equal(t, want, got, name)
	}
}

// Each platform (and custom-tag value) lands in exactly one variant, and
// each variant's constraint admits exactly its group.
func TestPlanVariants(t *testing.T) {
	parse := func(s string) constrainedFile {
		x, err := constraint.Parse("//go:build " + s)
		require.NoError(t, err)
		return constrainedFile{expr: x}
	}
	host := platform{"linux", "amd64"}
	tests := []struct {
		cs   []string
		want map[string]string // file -> constraint
	}{
		{[]string{"linux"}, map[string]string{"sentinel_gen.go": "!linux", "sentinel_gen_linux.go": "linux"}},
		{[]string{"linux", "windows"}, map[string]string{"sentinel_gen.go": "!linux && !windows", "sentinel_gen_linux.go": "linux", "sentinel_gen_windows.go": "windows"}},
		{[]string{"unix", "!unix"}, map[string]string{"sentinel_gen_unix.go": "unix", "sentinel_gen_not_unix.go": "!unix"}},
		{[]string{"darwin || freebsd"}, map[string]string{"sentinel_gen.go": "!(darwin || freebsd)", "sentinel_gen_darwin_or_freebsd_build.go": "darwin || freebsd"}},
		{[]string{"linux", "amd64"}, map[string]string{
			"sentinel_gen.go": "!linux && !amd64", "sentinel_gen_linux.go": "linux && !amd64",
			"sentinel_gen_amd64.go": "!linux && amd64", "sentinel_gen_linux_and_amd64.go": "linux && amd64",
		}},
		{[]string{"integration"}, map[string]string{"sentinel_gen.go": "!integration", "sentinel_gen_integration.go": "integration"}},
	}
	for _, tt := range tests {
		var cs []constrainedFile
		for _, c := range tt.cs {
			cs = append(cs, parse(c))
		}
		vs, diags := planVariants(cs, nil, host)
		assert.Empty(t, diags)
		got := map[string]string{}
		for _, v := range vs {
			got[v.file] = v.constraint
			x, err := constraint.Parse("//go:build " + v.constraint)
			require.NoError(t, err, v.constraint)
			assert.True(t, eval(x, v.at, nil), "%s is loaded for %v, which its constraint excludes", v.file, v.at)
		}
		assert.Equal(t, tt.want, got, "%v", tt.cs)

		// Exactly one variant per configuration, also counting the
		// constraint its file name implies.
		names, _ := freeTagNames(cs)
		for _, p := range universe(names, host) {
			n := 0
			for _, v := range vs {
				x, _ := constraint.Parse("//go:build " + v.constraint)
				if eval(and(x, nameConstraint(v.file)), p, nil) {
					n++
				}
			}
			assert.Equal(t, 1, n, "%v at %v", tt.cs, p)
		}
	}
}

func freeTagNames(cs []constrainedFile) ([]string, map[string]bool) {
	free := map[string]bool{}
	for _, c := range cs {
		freeTags(c.expr, nil, free)
	}
	var names []string
	for n := range free {
		names = append(names, n)
	}
	return names, free
}

// A directive in a test file is reported, and the package yields no model:
// nothing of it is generated until it is fixed.
func TestLoadReportsTestFileDirectives(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(goldenRoot, "err_test_file"))
	require.NoError(t, err)
	pkgs, diags, err := Load(dir, []string{"./..."}, Options{})
	require.NoError(t, err)
	assert.Empty(t, pkgs)
	assert.Len(t, diags, 4, "three in the package's test files, one in a directory of test files only")
}
