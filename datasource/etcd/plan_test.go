package etcd

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
)

// planOf runs planWrite for a source on key over the given key → value view
// and returns what each key would receive: its parsed rules, or nil when the
// key is compared but not rewritten.
func planOf(t *testing.T, src *Source, view map[string]string, set rules.Set) (map[string]*rules.Set, error) {
	t.Helper()
	v := map[string]entry{}
	rev := int64(1)
	for _, key := range slices.Sorted(maps.Keys(view)) {
		v[key] = entry{data: []byte(view[key]), modRev: rev}
		rev++
	}
	plan, err := src.planWrite(v, set)
	if err != nil {
		return nil, err
	}
	out := map[string]*rules.Set{}
	for _, w := range plan {
		if w.data == nil {
			out[w.key] = nil
			continue
		}
		s, err := rules.Parse(src.document(w.key, w.data))
		if err != nil {
			t.Fatalf("planned data for %s does not parse: %v\n%s", w.key, err, w.data)
		}
		out[w.key] = &s
	}
	return out, nil
}

func wantPlan(t *testing.T, got map[string]*rules.Set, want map[string]*rules.Set) {
	t.Helper()
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("plan writes keys %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for key, w := range want {
		g := got[key]
		switch {
		case w == nil && g != nil:
			t.Errorf("%s rewritten with %+v, want left alone", key, *g)
		case w != nil && g == nil:
			t.Errorf("%s left alone, want %+v", key, *w)
		case w != nil && !g.Equal(*w):
			t.Errorf("%s gets %+v, want %+v", key, *g, *w)
		}
	}
}

const (
	flowJSON    = `[{"resource":"createOrder","count":1,"controlBehavior":0}]`
	degradeJSON = `[{"resource":"createOrder","grade":2,"count":5,"timeWindow":1}]`
)

func TestPlanPutsEachKindInTheKeyNamedForIt(t *testing.T) {
	src := NewSource(nil, "/s/", WithPrefix())
	set := flowSet(40).Merge(degradeSet())
	got, err := planOf(t, src, map[string]string{"/s/flow.json": flowJSON, "/s/degrade.json": "[]"}, set)
	if err != nil {
		t.Fatal(err)
	}
	flow, degrade := flowSet(40), degradeSet()
	wantPlan(t, got, map[string]*rules.Set{"/s/flow.json": &flow, "/s/degrade.json": &degrade})
}

func TestPlanKeepsBothKindsInOneGeneralKey(t *testing.T) {
	src := NewSource(nil, "/s/", WithPrefix())
	set := flowSet(40).Merge(degradeSet())
	got, err := planOf(t, src, map[string]string{"/s/rules.toml": flowDoc(1)}, set)
	if err != nil {
		t.Fatal(err)
	}
	wantPlan(t, got, map[string]*rules.Set{"/s/rules.toml": &set})
}

func TestPlanMovesAKindOutOfAKeyThatNoLongerHoldsIt(t *testing.T) {
	// rules.toml held both kinds, flow.json now takes the flow rules: the
	// merge of the two keys must equal the set, with no flow rule twice.
	src := NewSource(nil, "/s/", WithPrefix())
	both := "[[flow]]\nresource = \"a\"\ncount = 1\n\n[[degrade]]\nresource = \"a\"\ngrade = \"errorCount\"\ncount = 5\ntimeWindow = 1\n"
	set := flowSet(40).Merge(degradeSet())
	got, err := planOf(t, src, map[string]string{"/s/flow.json": "[]", "/s/rules.toml": both}, set)
	if err != nil {
		t.Fatal(err)
	}
	flow, degrade := flowSet(40), degradeSet()
	wantPlan(t, got, map[string]*rules.Set{"/s/flow.json": &flow, "/s/rules.toml": &degrade})
}

func TestPlanFollowsWhichKeyHoldsAKind(t *testing.T) {
	src := NewSource(nil, "/s/", WithPrefix())
	set := flowSet(40).Merge(degradeSet())
	got, err := planOf(t, src, map[string]string{"/s/a.json": flowJSON, "/s/b.json": degradeJSON}, set)
	if err != nil {
		t.Fatal(err)
	}
	flow, degrade := flowSet(40), degradeSet()
	wantPlan(t, got, map[string]*rules.Set{"/s/a.json": &flow, "/s/b.json": &degrade})
}

func TestPlanCreatesKeysOnlyForKindsWithRules(t *testing.T) {
	for _, tc := range []struct {
		prefix string
		opts   []Option
		want   string
	}{
		{"/s/", nil, "/s/flow.json"},
		{"/s", nil, "/s/flow.json"},
		{"/s/", []Option{WithFormat(rules.FormatTOML)}, "/s/flow.toml"},
	} {
		src := NewSource(nil, tc.prefix, append(tc.opts, WithPrefix())...)
		got, err := planOf(t, src, nil, flowSet(3))
		if err != nil {
			t.Fatal(err)
		}
		flow := flowSet(3)
		wantPlan(t, got, map[string]*rules.Set{tc.want: &flow})
	}
}

func TestPlanLeavesKeysThatAlreadyHoldTheirPart(t *testing.T) {
	src := NewSource(nil, "/s/", WithPrefix())
	held, err := rules.Parse(src.document("/s/flow.json", []byte(flowJSON)))
	if err != nil {
		t.Fatal(err)
	}
	set := held.Merge(degradeSet())
	got, err := planOf(t, src, map[string]string{"/s/flow.json": flowJSON, "/s/degrade.json": "[]"}, set)
	if err != nil {
		t.Fatal(err)
	}
	degrade := degradeSet()
	wantPlan(t, got, map[string]*rules.Set{"/s/flow.json": nil, "/s/degrade.json": &degrade})
}

func TestPlanRefusesLayoutsWithoutOneKeyPerKind(t *testing.T) {
	for name, tc := range map[string]struct {
		src  *Source
		view map[string]string
		set  rules.Set
		want string
	}{
		"two keys named flow": {
			NewSource(nil, "/s/", WithPrefix()),
			map[string]string{"/s/flow-a.json": flowJSON, "/s/flow-b.json": flowJSON}, flowSet(1),
			"named for flow rules"},
		"two keys holding flow": {
			NewSource(nil, "/s/", WithPrefix()),
			map[string]string{"/s/a.json": flowJSON, "/s/b.json": flowJSON}, flowSet(1),
			"all hold flow rules"},
		"degrade rules for a flow key": {
			NewSource(nil, "/s/flow.json"),
			nil, degradeSet(),
			"named for flow rules and cannot hold degrade rules"},
	} {
		_, err := planOf(t, tc.src, tc.view, tc.set)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
		}
	}
}

func TestWriteFormatKeepsTheKeysFormat(t *testing.T) {
	src := NewSource(nil, "/s/", WithPrefix())
	for _, tc := range []struct {
		key, data string
		want      rules.Format
	}{
		{"/s/flow.json", "", rules.FormatJSON},
		{"/s/rules.TOML", "", rules.FormatTOML},
		{"/s/rules", flowDoc(1), rules.FormatTOML},
		{"/s/rules", flowJSON, rules.FormatJSON},
		{"/s/rules", "[]", rules.FormatJSON},
		{"/s/rules", "", rules.FormatJSON},
	} {
		if got := src.writeFormat(tc.key, []byte(tc.data)); got != tc.want {
			t.Errorf("writeFormat(%s, %q) = %v, want %v", tc.key, tc.data, got, tc.want)
		}
	}
}
