package relpath

import (
	"path/filepath"
	"testing"
)

func TestBelow(t *testing.T) {
	dir := filepath.FromSlash("/work/mod")
	cases := []struct{ file, want string }{
		{"/work/mod/svc/svc.go", "svc/svc.go"},
		{"/work/mod", "."},
		{"/work/other/x.go", "/work/other/x.go"},
		{"/work/mod/..hidden/x.go", "..hidden/x.go"}, // a name starting with dots is still below
		{"svc/svc.go", "svc/svc.go"},
	}
	for _, c := range cases {
		if got := Below(dir, filepath.FromSlash(c.file)); got != filepath.FromSlash(c.want) {
			t.Errorf("Below(%q) = %q, want %q", c.file, got, c.want)
		}
	}
	if got := Below("", "/a/b.go"); got != "/a/b.go" {
		t.Errorf("Below with no dir = %q", got)
	}
}
