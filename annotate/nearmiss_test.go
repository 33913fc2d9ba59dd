package annotate

import (
	"strings"
	"testing"
)

func TestNearMiss(t *testing.T) {
	tests := []struct {
		text string
		want string // a substring of the message; "" wants no message
	}{
		{"//sentinel:resource name=a", ""},
		{"//sentinel:resouce name=a", ""}, // the unknown-directive check names it
		{"// sentinel:resource name=a", "a blank after //"},
		{"//\tsentinel:resource", "a blank after //"},
		{"//sentinel: resource", "a blank after the colon"},
		{"//Sentinel:resource", "Sentinel is not lower-case"},
		{"//SENTINEL:RESOURCE", "write //sentinel:resource"},
		{"//sentinel :resource", "a blank before the colon"},
		{"// sentinel: name=a", "write //sentinel:resource"},
		{"/* sentinel:resource name=a */", "/* */ comment"},
		{"/*\n * //sentinel:resource name=a\n */", "/* */ comment"},
		{"// Sentinel: the library this mirrors.", ""},
		{"// Sentinel guards this call.", ""},
		{"// sentinels: plural", ""},
		{"/* nothing here */", ""},
	}
	for _, tt := range tests {
		got := nearMiss(tt.text)
		switch {
		case tt.want == "" && got != "":
			t.Errorf("nearMiss(%q) = %q; want none", tt.text, got)
		case tt.want != "" && !strings.Contains(got, tt.want):
			t.Errorf("nearMiss(%q) = %q; want it to contain %q", tt.text, got, tt.want)
		}
	}
}
