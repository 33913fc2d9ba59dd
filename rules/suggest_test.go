package rules

import "testing"

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"count", "count", 0}, {"", "abc", 3}, {"cout", "count", 1},
		{"flwo", "flow", 1}, {"grade", "garde", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1},
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := editDistance(c.b, c.a); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"resource", "count", "grade", "timeWindow", "statIntervalMs"}
	cases := map[string]string{
		"cout":         "count",
		"COUNT":        "count", // case only
		"timewindow":   "timeWindow",
		"statInterval": "statIntervalMs",
		"resorce":      "resource",
		"ip":           "", // too short to guess
		"limitApp":     "", // nothing close
		"windowTime":   "",
	}
	for word, want := range cases {
		if got := suggest(word, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}
