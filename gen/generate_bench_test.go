package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// benchPackage loads testdata/bench/svc, ten annotated methods shaped like
// the packages of scripts/genspeed, once per benchmark: loading costs far
// more than generating and is not what is measured.
func benchPackage(b testing.TB) *annotate.Package {
	b.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "bench"))
	if err != nil {
		b.Fatal(err)
	}
	pkgs, diags, err := annotate.Load(dir, []string{"./svc"}, annotate.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range diags {
		b.Errorf("unexpected diagnostic: %s", d)
	}
	if len(pkgs) != 1 || len(pkgs[0].Resources) != 10 {
		b.Fatalf("loaded %d packages; want one with 10 resources", len(pkgs))
	}
	return pkgs[0]
}

// BenchmarkGenerate measures one package's sentinel_gen.go: building the
// jennifer tree, rendering and formatting it.
func BenchmarkGenerate(b *testing.B) {
	pkg := benchPackage(b)
	b.ReportAllocs()
	for b.Loop() {
		out, err := Generate(pkg)
		if err != nil || len(out) == 0 {
			b.Fatalf("Generate = %d bytes, %v", len(out), err)
		}
	}
}

// BenchmarkSync100 checks 100 up-to-date packages of ten methods, the speed
// goal's module (copies of one model, each in its own directory), without
// and with the cache: what sentinelgen -check ./... spends after loading.
func BenchmarkSync100(b *testing.B) {
	model := benchPackage(b)
	want, err := Generate(model)
	if err != nil {
		b.Fatal(err)
	}
	pkgs := make([]*annotate.Package, 100)
	for i := range pkgs {
		pkg := *model
		pkg.Dir = b.TempDir()
		if err := os.WriteFile(filepath.Join(pkg.Dir, annotate.GeneratedFileName), want, 0o644); err != nil {
			b.Fatal(err)
		}
		pkgs[i] = &pkg
	}
	for _, bc := range []struct {
		name  string
		cache *Cache
	}{
		{"render", nil},
		{"cached", NewCache(b.TempDir(), []byte("bench"))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			// The first run fills the cache; what is measured is every
			// run after it.
			if _, err := Sync(pkgs, SyncOptions{Check: true, Cache: bc.cache}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := Sync(pkgs, SyncOptions{Check: true, Cache: bc.cache})
				if err != nil || res.Unchanged != len(pkgs) {
					b.Fatalf("Sync = %+v, %v; want every package up to date", res, err)
				}
			}
		})
	}
}

// BenchmarkCacheKey measures one package's cache key: encoding the model of
// ten methods and hashing it, what a cached package costs besides reading
// its file.
func BenchmarkCacheKey(b *testing.B) {
	pkg := benchPackage(b)
	c := NewCache(b.TempDir(), []byte("bench"))
	b.ReportAllocs()
	for b.Loop() {
		if !c.key(pkg).Valid() {
			b.Fatal("no key")
		}
	}
}
