package load

import (
	"strings"
	"testing"
)

// Every column of Header is explained by Legend, in the same order.
func TestLegendExplainsEveryColumn(t *testing.T) {
	cols := strings.Fields(Header())
	var named []string
	for _, l := range strings.Split(Legend(), "\n") {
		named = append(named, strings.Fields(l)[0])
	}
	if strings.Join(named, " ") != strings.Join(cols, " ") {
		t.Errorf("Legend explains %q, Header has %q", named, cols)
	}
}
