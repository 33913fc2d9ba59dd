package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// A package generated per build constraint has one model per file: Sync
// writes each with its //go:build line, -check reports each one missing or
// stale, and a per-constraint file no model is for any more is left over
// (deleted, or only listed with Check), while a user's file that merely
// has such a name is left alone.
func TestSyncVariants(t *testing.T) {
	dir := t.TempDir()
	plain := funcModel(dir)
	plain.Constraint = "!linux"
	linux := funcModel(dir)
	linux.File, linux.Constraint = "sentinel_gen_linux.go", "linux"
	pkgs := []*annotate.Package{plain, linux}

	stalePath := filepath.Join(dir, "sentinel_gen_windows.go")
	userPath := filepath.Join(dir, "sentinel_gen_helpers.go")
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(stalePath, Header+"\n\n//go:build windows\n\npackage p\n")
	write(userPath, "package p\n")

	res, err := Sync(pkgs, SyncOptions{Check: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Path: filepath.Join(dir, annotate.GeneratedFileName), Kind: Missing},
		{Path: filepath.Join(dir, "sentinel_gen_linux.go"), Kind: Missing},
		{Path: stalePath, Kind: LeftOver},
	}
	if !equalChanges(res.Changes, want) {
		t.Fatalf("check = %+v; want %+v", res.Changes, want)
	}
	if _, err := os.Stat(stalePath); err != nil {
		t.Fatal("check mode removed the left-over file")
	}

	if _, err := Sync(pkgs, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	for file, line := range map[string]string{annotate.GeneratedFileName: "//go:build !linux\n", "sentinel_gen_linux.go": "//go:build linux\n"} {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		head, rest, _ := bytes.Cut(got, []byte("\n\n"))
		if !bytes.HasPrefix(head, []byte(Header+"\n"+annotate.FingerprintPrefix)) || !bytes.HasPrefix(rest, []byte(line+"\npackage p\n")) {
			t.Errorf("%s does not start with the header, the fingerprint and %q:\n%s", file, line, got)
		}
	}
	if _, err := os.Stat(stalePath); !os.IsNotExist(err) {
		t.Errorf("the left-over %s is still there", filepath.Base(stalePath))
	}
	if _, err := os.Stat(userPath); err != nil {
		t.Errorf("the user's %s was touched: %v", filepath.Base(userPath), err)
	}

	res, err = Sync(pkgs, SyncOptions{Check: true})
	if err != nil || len(res.Changes) != 0 || res.Unchanged != 2 {
		t.Fatalf("check after sync = %+v, %v; want 2 unchanged", res, err)
	}

	// The linux directive removed: the package is back to one plain file.
	unconstrained := funcModel(dir)
	if _, err := Sync([]*annotate.Package{unconstrained}, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sentinel_gen_linux.go")); !os.IsNotExist(err) {
		t.Error("sentinel_gen_linux.go survived its constraint's last directive")
	}
	got, _ := os.ReadFile(filepath.Join(dir, annotate.GeneratedFileName))
	if bytes.Contains(got, []byte("//go:build")) {
		t.Errorf("sentinel_gen.go kept a constraint:\n%s", got)
	}
}

func equalChanges(a, b []Change) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
