package analyzer_test

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/analyzer"
	"github.com/sentinelgen/sentinelgen/annotate"
)

// TestForwardsToAnnotate: the old name is the contract's Analyzer itself,
// not a copy that could drift from it.
func TestForwardsToAnnotate(t *testing.T) {
	if analyzer.Analyzer != annotate.Analyzer {
		t.Fatal("analyzer.Analyzer is not annotate.Analyzer")
	}
}
