package annotate_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// TestPerPlatformGeneratedFiles: each platform's pass judges the generated
// file built for it. The generator writes sentinel_gen_linux.go and
// sentinel_gen.go (!linux) for testdata/analyzer/platforms; both are fresh
// on linux, darwin and windows. An edit of the Linux-only directive makes
// sentinel_gen_linux.go stale for the linux pass only (the others do not
// build that file, and their own is still right), and a removed
// sentinel_gen.go is missing for the other platforms only.
func TestPerPlatformGeneratedFiles(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, testdata(t))
	pkgDir := filepath.Join(dir, "platforms")
	pkgs, diags, err := annotate.Load(dir, []string{"./platforms"}, annotate.Options{})
	if err != nil || len(diags) > 0 {
		t.Fatalf("load: %v %v", err, diags)
	}
	if _, err := gen.Sync(pkgs, gen.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, p := range pkgs {
		written = append(written, p.File)
	}
	slices.Sort(written)
	if want := []string{"sentinel_gen.go", "sentinel_gen_linux.go"}; !slices.Equal(written, want) {
		t.Fatalf("the generator wrote %v; the case wants %v", written, want)
	}
	platforms := []string{"linux", "darwin", "windows"}
	vet := func(goos string) string {
		return analyzeFor(t, dir, append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0"), "./platforms")
	}
	for _, goos := range platforms {
		if got := vet(goos); got != "" {
			t.Errorf("GOOS=%s, just generated: want no diagnostics, got\n%s", goos, got)
		}
	}

	linux := filepath.Join(pkgDir, "svc_linux.go")
	src := readFile(t, linux)
	writeFile(t, linux, strings.Replace(src, "name=platforms.syncLinux", "name=platforms.fsync", 1))
	for _, goos := range platforms {
		got := vet(goos)
		want := ""
		if goos == "linux" {
			want = "platforms/svc.go:13:1: sentinel_gen_linux.go is stale: it has no resource \"platforms.fsync\"; run go generate\n"
		}
		if got != want {
			t.Errorf("GOOS=%s after editing svc_linux.go: got\n%swant\n%s", goos, got, want)
		}
	}
	writeFile(t, linux, src)

	if err := os.Remove(filepath.Join(pkgDir, "sentinel_gen.go")); err != nil {
		t.Fatal(err)
	}
	for _, goos := range platforms {
		got := vet(goos)
		want := ""
		if goos != "linux" {
			want = "platforms/svc.go:13:1: no generated file is built for this platform (the package has only sentinel_gen_linux.go); run go generate\n"
		}
		if got != want {
			t.Errorf("GOOS=%s without sentinel_gen.go: got\n%swant\n%s", goos, got, want)
		}
	}
}
