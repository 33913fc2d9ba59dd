package gen

import (
	"os"
	"os/exec"
	"testing"
)

// TestGeneratedCodeBuildsOnEveryPlatform installs the golden files of the
// gen_platforms case (a package with directives in _linux, _windows and
// "darwin || freebsd" files) and vets the package, tests included, for one
// platform of each group its files are written for and for one that none of
// them targets: a generated file that held another platform's wrappers
// would not build there (undefined handlers, a wrapper for a method that
// does not exist). One platform per group is enough, since the generated
// files differ by group only; all are amd64, as the other cross-platform
// tests build, so that they share the build cache.
func TestGeneratedCodeBuildsOnEveryPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds the testdata module")
	}
	goTool, tmp := testdataModule(t, "gen_platforms", "ruletest")
	for _, p := range []struct{ goos, goarch string }{
		{"linux", "amd64"}, {"windows", "amd64"}, {"darwin", "amd64"}, {"plan9", "amd64"},
	} {
		t.Run(p.goos+"_"+p.goarch, func(t *testing.T) {
			cmd := exec.Command(goTool, "vet", "./gen_platforms")
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("GOOS=%s GOARCH=%s go vet: %v\n%s", p.goos, p.goarch, err, out)
			}
		})
	}
}
