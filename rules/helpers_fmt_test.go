package rules

import (
	"strings"
	"testing"
)

// parseText parses text as a document called name, format inferred.
func parseText(name, text string) (Set, error) {
	return Parse(Document{Name: name, Data: []byte(text)})
}

// mustParseText parses text and fails the test on any error.
func mustParseText(t *testing.T, name, text string) Set {
	t.Helper()
	s, err := parseText(name, text)
	if err != nil {
		t.Fatalf("Parse(%s): %v\n%s", name, err, text)
	}
	return s
}

// errorTexts renders every *Error in err, one string each.
func errorTexts(err error) []string {
	var out []string
	for _, e := range Errors(err) {
		out = append(out, e.Error())
	}
	return out
}

// warningTexts renders a set's warnings, one string each.
func warningTexts(s Set) []string {
	var out []string
	for _, w := range s.Warnings {
		out = append(out, w.Error())
	}
	return out
}

// checkTexts fails when got and want differ, showing both in full.
func checkTexts(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got:\n  %s\n want:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
