package gen

import (
	"os"
	"os/exec"
	"testing"
)

// TestGeneratedCodeBuildsOnEveryPlatform installs the golden files of the
// gen_platforms case (a package with directives in _linux, _windows and
// "darwin || freebsd" files) and vets the package, tests included, for a
// platform of each group its files are written for and for one that none
// of them targets. Before each platform got its own generated file, the
// one sentinel_gen.go held the host's wrappers, and every other platform
// failed to build (undefined handlers, a Sync wrapper for a method that
// does not exist there).
func TestGeneratedCodeBuildsOnEveryPlatform(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds the testdata module")
	}
	goTool, tmp := testdataModule(t, "gen_platforms", "ruletest")
	for _, p := range []struct{ goos, goarch string }{
		{"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"darwin", "arm64"},
		{"freebsd", "amd64"}, {"openbsd", "amd64"}, {"plan9", "amd64"},
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
