package suggest

import "testing"

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"count", "count", 0}, {"", "abc", 3}, {"", "abcd", 4}, {"cout", "count", 1},
		{"flwo", "flow", 1}, {"grade", "garde", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1},
		{"Gte", "Get", 1},
		{"ca", "abc", 3}, // no edits inside a swapped pair (optimal string alignment)
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	candidates := []string{"createOrderBlocked", "createOrderFallback", "Get", "blockHandler", "count", "timeWindow", ""}
	cases := map[string]string{
		"createOrderBlokced": "createOrderBlocked",
		"createOrderFallbak": "createOrderFallback",
		"blockhandler":       "blockHandler", // case only
		"COUNT":              "count",
		"Gte":                "Get",
		"cout":               "count",
		"timewindow":         "timeWindow",
		"nothingLikeIt":      "",
		"Get":                "", // itself is not a suggestion
		"x":                  "",
		"windowTime":         "",
	}
	for word, want := range cases {
		if got := Closest(word, candidates); got != want {
			t.Errorf("Closest(%q) = %q, want %q", word, got, want)
		}
	}
}

// Equally near candidates give the same answer in any order.
func TestClosestTie(t *testing.T) {
	for _, candidates := range [][]string{{"flow", "flax"}, {"flax", "flow"}} {
		if got := Closest("flaw", candidates); got != "flax" {
			t.Errorf("Closest(flaw, %v) = %q, want flax (first in byte order)", candidates, got)
		}
	}
}

// A key cut short, or run on, is recognised by Prefixed.
func TestPrefixed(t *testing.T) {
	candidates := []string{"slowRatioThreshold", "statIntervalMs", "minRequestAmount", "count", "grade"}
	cases := map[string]string{
		"slowRatio":      "slowRatioThreshold",
		"SLOWRATIO":      "slowRatioThreshold",
		"minRequest":     "minRequestAmount",
		"statInterval":   "statIntervalMs",
		"countPerSecond": "count", // a candidate that is a prefix of the word
		"slo":            "",      // too short to tell
		"threshold":      "",      // inside, not a prefix
	}
	for word, want := range cases {
		if got := Prefixed(word, candidates); got != want {
			t.Errorf("Prefixed(%q) = %q, want %q", word, got, want)
		}
	}
}
