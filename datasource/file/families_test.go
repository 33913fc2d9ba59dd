package file_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// Hot reload carries every rule kind: an edit of the file changes all of
// them at once, and a file broken in one param-flow rule changes none.
func TestWatchCarriesEveryKind(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.AllKindsTOML("kinds.a", 5))
	w, _ := startWatch(t, path)
	if got := st.AllKindsInForce(); got != "param:5 system:1005 authority:app-5" {
		t.Fatalf("at start: %s", got)
	}

	st.ReplaceFile(t, path, st.AllKindsTOML("kinds.a", 7))
	st.WaitUntil(t, "the edit applies", func() bool { return st.AllKindsInForce() == "param:7 system:1007 authority:app-7" })
	if got := fmt.Sprint(st.FlowResources(sentinel.FlowRules())); got != "[kinds.a:7]" {
		t.Errorf("flow rules %s after the edit", got)
	}

	broken := st.AllKindsTOML("kinds.a", 9) + "[[paramFlow]]\nresource = \"kinds.a\"\nparam = \"\"\ncount = 1\n"
	st.ReplaceFile(t, path, broken)
	st.WaitUntil(t, "the broken file is rejected", func() bool { return w.Rejected() == 1 })
	line := strings.Count(st.AllKindsTOML("kinds.a", 9), "\n") + 3
	if err := w.LastError(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("rules.toml:%d: param", line)) {
		t.Errorf("LastError = %v, want one at rules.toml:%d", err, line)
	}
	if got := st.AllKindsInForce(); got != "param:7 system:1007 authority:app-7" {
		t.Errorf("rules after a broken file: %s", got)
	}
	if got := fmt.Sprint(st.FlowResources(sentinel.FlowRules())); got != "[kinds.a:7]" {
		t.Errorf("flow rules %s after a broken file, want the last good ones", got)
	}
}

// A Sentinel JSON file of every kind (the object form) and one of a single
// new kind, named as a Java service's data source names it, both load.
func TestWatchSentinelJSONKinds(t *testing.T) {
	st.ResetRules(t)
	s, err := rules.Parse(rules.Document{Name: "all.toml", Data: []byte(st.AllKindsTOML("json.a", 3))})
	if err != nil {
		t.Fatal(err)
	}
	data, err := rules.Encode(s, rules.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	all := filepath.Join(t.TempDir(), "rules.json")
	st.WriteFile(t, all, string(data))
	startWatch(t, all)
	if got := st.AllKindsInForce(); got != "param:3 system:1003 authority:app-3" {
		t.Fatalf("in force: %s", got)
	}
	if !rules.Current().Equal(s) {
		t.Errorf("Current() = %+v\nwant %+v", rules.Current(), s)
	}

	st.ResetRules(t)
	one := filepath.Join(t.TempDir(), "orders-param-flow-rules.json")
	st.WriteFile(t, one, `[{"resource": "json.b", "paramIdx": 0, "count": 11}]`)
	startWatch(t, one)
	if got := st.AllKindsInForce(); got != "param:11" {
		t.Fatalf("in force: %s", got)
	}
}

// Writing back (the file source's Write) keeps every kind.
func TestSourceWriteKeepsEveryKind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	s, err := rules.Parse(rules.Document{Name: "all.toml", Data: []byte(st.AllKindsTOML("write.a", 4))})
	if err != nil {
		t.Fatal(err)
	}
	if err := testSource(path).Write(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	back, err := rules.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(s) || len(back.ParamFlow) != 1 || len(back.System) != 1 || len(back.Authority) != 1 {
		t.Errorf("read back %+v", back)
	}
}
