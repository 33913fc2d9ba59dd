package rules

import "testing"

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
