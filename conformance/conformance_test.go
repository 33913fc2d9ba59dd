package conformance

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	generated = flag.Int("conformance.generated", 300, "number of generated scenarios to compare")
	genParams = flag.Int("conformance.generated-params", 100, "number of generated hot-parameter scenarios to compare")
	genSystem = flag.Int("conformance.generated-system", 40, "number of generated system-protection scenarios to compare")
	firstSeed = flag.Uint64("conformance.seed", 1, "seed of the first generated scenario")
	keepDir   = flag.String("conformance.keep", "", "write the generated scenarios to this directory (to replay or read them)")
	withFlag  = flag.String("conformance.with", "", "comma-separated features the generated scenarios may use beyond the default (see allFeatures in gen_test.go; \"all\" for every one)")
)

// scenario is one file to replay.
type scenario struct {
	name  string // the path given to the Java program
	steps []step
	start time.Duration
}

// loadScenarios reads the hand-written scenarios and writes the generated
// ones, in the order both sides replay them.
func loadScenarios(t *testing.T) (all []scenario, hand int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	hand = len(files)
	dir := *keepDir
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	with := features{}
	for _, f := range strings.Split(*withFlag, ",") {
		switch _, known := allFeatures[f]; {
		case f == "":
		case f == "all":
			for k := range allFeatures {
				with[k] = true
			}
		case !known:
			t.Fatalf("-conformance.with: unknown feature %q", f)
		default:
			with[f] = true
		}
	}
	// Each generator writes its scenarios from the same seeds, under a
	// name prefix of its own.
	for _, g := range []struct {
		n      int
		prefix string
		make   func(seed uint64) []byte
	}{
		{*generated, "generated", func(seed uint64) []byte { return genScenario(seed, with) }},
		{*genParams, "generated-params", genParamScenario},
		{*genSystem, "generated-system", genSystemScenario},
	} {
		for i := range g.n {
			seed := *firstSeed + uint64(i)
			name := filepath.Join(dir, fmt.Sprintf("%s-%04d.jsonl", g.prefix, seed))
			if err := os.WriteFile(name, g.make(seed), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
	}
	for k, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := parseScenario(f, data)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, scenario{name: f, steps: steps, start: time.Duration(startMs+int64(k)*gapMs) * time.Millisecond})
	}
	return all, hand
}

// TestConformance replays every scenario through the runtime and checks its
// expectations, then replays the same files through Java Sentinel and
// compares the two event by event, naming the first difference of each
// scenario. An event marked "differs" is a deliberate difference: Java must
// differ there (else the mark is stale), and the difference must be listed
// in docs/differences.md.
func TestConformance(t *testing.T) {
	all, hand := loadScenarios(t)
	g := newGoReplay()
	goOut := make([][]string, len(all))
	for i, s := range all {
		goOut[i] = g.run(s.steps, s.start)
	}
	if err := g.close(); err != nil {
		t.Fatal(err)
	}
	documented := differenceIDs(t)

	t.Run("runtime", func(t *testing.T) {
		for i, s := range all {
			for j, st := range s.steps {
				if st.ev.Expect != "" && !hasWords(goOut[i][j], st.ev.Expect) {
					t.Errorf("%s:%d: %s\n\truntime: %s\n\twant:    %s", s.name, st.line, st.text, goOut[i][j], st.ev.Expect)
				}
				if strings.HasPrefix(goOut[i][j], "error") || strings.HasPrefix(goOut[i][j], "rules error") {
					t.Errorf("%s:%d: %s\n\truntime: %s", s.name, st.line, st.text, goOut[i][j])
				}
				if id := st.ev.Differs; id != "" && !documented[id] {
					t.Errorf("%s:%d: difference %q is not listed in docs/differences.md", s.name, st.line, id)
				}
			}
		}
	})

	t.Run("java", func(t *testing.T) {
		h := javaHarness(t)
		if h.built > 0 {
			t.Logf("built the Java harness in %v", h.built.Round(time.Millisecond))
		}
		names := make([]string, len(all))
		for i, s := range all {
			names[i] = s.name
		}
		start := time.Now()
		javaOut, err := h.replay(names)
		if err != nil {
			t.Fatal(err)
		}
		compared, deliberate := 0, 0
		for i, s := range all {
			jv := javaOut[s.name]
			if jv == nil {
				t.Errorf("%s: the Java program printed nothing for it", s.name)
				continue
			}
			for j, st := range s.steps {
				gv, got := goOut[i][j], jv[st.line]
				compared++
				if st.ev.Differs != "" {
					deliberate++
					if got == gv {
						t.Errorf("%s:%d: marked as difference %q, but Java now agrees (%s): remove the mark and the entry in docs/differences.md if it was the last", s.name, st.line, st.ev.Differs, got)
					} else if !hasWords(got, st.ev.Java) {
						t.Errorf("%s:%d: difference %q: Java printed %q, want the words %q", s.name, st.line, st.ev.Differs, got, st.ev.Java)
					}
					continue
				}
				if got != gv {
					t.Errorf("%s:%d: first difference (event %d of %d): %s\n\truntime: %s\n\tjava:    %s%s", s.name, st.line, j+1, len(s.steps), st.text, gv, got, eventsBefore(s, goOut[i], j))
					break
				}
			}
		}
		t.Logf("%d scenarios (%d hand-written, %d generated), %d events compared, %d of them deliberate differences; Java replay took %v",
			len(all), hand, len(all)-hand, compared, deliberate, time.Since(start).Round(time.Millisecond))
	})
}

// differenceIDs reads the ids of docs/differences.md: each difference's
// heading ends with its id in backquotes, e.g. "## Warm-up ... `warmup-x`".
func differenceIDs(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "differences.md"))
	if err != nil {
		t.Fatalf("reading the list of deliberate differences: %v", err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^#+ .*`([a-z0-9-]+)`\\s*$").FindAllStringSubmatch(string(data), -1) {
		ids[m[1]] = true
	}
	return ids
}

// contextEvents is how many events before a difference its report shows.
const contextEvents = 8

// eventsBefore shows the events before step j of s with the runtime's output,
// which both sides agreed on.
func eventsBefore(s scenario, out []string, j int) string {
	var b strings.Builder
	b.WriteString("\n\tafter (both sides agreeing):")
	for k := max(0, j-contextEvents); k < j; k++ {
		fmt.Fprintf(&b, "\n\t\t%d: %s => %s", s.steps[k].line, s.steps[k].text, out[k])
	}
	return b.String()
}
