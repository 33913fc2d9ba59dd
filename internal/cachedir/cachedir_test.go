package cachedir

import (
	"path/filepath"
	"testing"
)

func TestRootFollowsTheEnvironment(t *testing.T) {
	t.Setenv(Env, "off")
	if dir, ok := Root(); ok {
		t.Errorf("%s=off: root %q; want none", Env, dir)
	}
	t.Setenv(Env, "relative/dir")
	if dir, ok := Root(); ok {
		t.Errorf("%s=relative/dir: root %q; want none", Env, dir)
	}
	abs := t.TempDir()
	t.Setenv(Env, abs)
	if dir, ok := Root(); !ok || dir != abs {
		t.Errorf("%s=%s: root %q, %v; want %q, true", Env, abs, dir, ok, abs)
	}
	if dir, ok := Sub("golist"); !ok || dir != filepath.Join(abs, "golist") {
		t.Errorf("Sub(golist) = %q, %v; want %q, true", dir, ok, filepath.Join(abs, "golist"))
	}
}
