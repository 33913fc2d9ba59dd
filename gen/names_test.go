package gen

import "testing"

func TestNamesFresh(t *testing.T) {
	n := newNames(map[string]bool{"e": true, "e2": true, "err": true})
	n.reserve("ctx")
	n.reserve("_") // blank is never a name to avoid or hand out
	tests := []struct{ base, want string }{
		{"e", "e3"},     // e and e2 taken
		{"ctx", "ctx2"}, // reserved
		{"blockErr", "blockErr"},
		{"blockErr", "blockErr2"}, // fresh takes what it returns
		{"func", "func2"},         // keywords are never returned
		{"_", "_2"},
		{"arg1", "arg1"},
		{"arg1", "arg1_2"}, // not arg12
	}
	for _, tt := range tests {
		if got := n.fresh(tt.base); got != tt.want {
			t.Errorf("fresh(%q) = %q; want %q", tt.base, got, tt.want)
		}
	}
}

func TestNamesChildSeesParentButNotTheOtherWay(t *testing.T) {
	parent := newNames(map[string]bool{"res": true})
	child := parent.child()
	if got := child.fresh("res"); got != "res2" {
		t.Errorf("child fresh(res) = %q; want res2", got)
	}
	if parent.has("res2") {
		t.Error("a name taken in the child leaked into the parent")
	}
}
