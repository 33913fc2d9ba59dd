// Package analyzer is kept for code written against it before the
// Analyzer moved to package annotate, where the contract puts it:
// use annotate.Analyzer.
package analyzer

import "github.com/sentinelgen/sentinelgen/annotate"

// Analyzer is annotate.Analyzer, the same value: sentinelgen's checks as a
// go/analysis Analyzer.
//
// Deprecated: use annotate.Analyzer.
var Analyzer = annotate.Analyzer
