// Command sentinelvet runs sentinelgen's checks (annotate.Analyzer) as a
// standalone checker, as a go vet tool and as a go fix tool:
//
//	sentinelvet ./...                      # report
//	sentinelvet -fix ./...                 # report and apply the suggested fixes
//	go vet -vettool=$(which sentinelvet) ./...
//	go fix -fixtool=$(which sentinelvet) ./...
//
// It reports every directive the generator would refuse, at the offending
// value, and a sentinel_gen.go that is missing or does not match the
// directives.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/sentinelgen/sentinelgen/annotate"
)

func main() { singlechecker.Main(annotate.Analyzer) }
