package conformance

import (
	"strings"
	"testing"
)

// A system-readings event carries the readings it sets; one without any is
// an error naming the file and line, as is a reading of the wrong type.
func TestParseSystemReadings(t *testing.T) {
	steps, err := parseScenario("s.jsonl", []byte("# c\n{\"op\":\"system-readings\",\"load\":2.5}\n{\"op\":\"system-readings\",\"load\":-1,\"cpu\":0.75}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[0].line != 2 || *steps[0].ev.Load != 2.5 || steps[0].ev.CPU != nil ||
		*steps[1].ev.Load != -1 || *steps[1].ev.CPU != 0.75 {
		t.Fatalf("parsed %+v", steps)
	}
	for _, tc := range []struct{ text, want string }{
		{"{\"op\":\"advance\"}\n{\"op\":\"system-readings\"}\n", "s.jsonl:2: system-readings needs load or cpu"},
		{"{\"op\":\"system-readings\",\"cpu\":\"high\"}\n", "s.jsonl:1: "},
	} {
		if _, err := parseScenario("s.jsonl", []byte(tc.text)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error starting %q", tc.text, err, tc.want)
		}
	}
}
