package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// explainStale writes, below a stale file's line of the -check listing, why
// it is stale: the first line that differs from what the generator would
// write, or with full the whole difference as a unified diff. A check that
// says only "stale" leaves the user to regenerate and diff by hand to learn
// whether the file was edited or the code changed.
//
// It renders the package again (Sync in check mode keeps no output); that
// costs one Generate per stale file, and only under -check.
func explainStale(w io.Writer, path string, pkgs []*annotate.Package, full bool) {
	have, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "\t%v\n", err)
		return
	}
	var want []byte
	for _, pkg := range pkgs {
		if filepath.Join(pkg.Dir, annotate.GeneratedFileName) == path {
			if want, err = gen.Generate(pkg); err != nil {
				fmt.Fprintf(w, "\t%v\n", err)
				return
			}
			break
		}
	}
	if want == nil {
		return // not a file of these packages: nothing to compare with
	}
	name := relative(path)
	if full {
		fmt.Fprint(w, unifiedDiff(name+" (on disk)", name+" (as generated)", have, want))
		return
	}
	line, h, g, hOK, gOK, differ := firstDifference(have, want)
	if !differ {
		return
	}
	if strings.HasPrefix(h, annotate.FingerprintPrefix) && strings.HasPrefix(g, annotate.FingerprintPrefix) {
		// The fingerprint moves with any change to the code below it:
		// the line worth showing is the next difference, if there is one.
		if l, h2, g2, hOK2, gOK2, ok := firstDifference(blankFingerprint(have), blankFingerprint(want)); ok {
			line, h, g, hOK, gOK = l, h2, g2, hOK2, gOK2
		}
	}
	fmt.Fprintf(w, "\tfirst difference at line %d:\n\t  have: %s\n\t  want: %s\n", line, quoteLine(h, hOK), quoteLine(g, gOK))
}

// quoteLine shows a line of a file, or that the file ended before it.
func quoteLine(line string, ok bool) string {
	if !ok {
		return "(end of file)"
	}
	return strconv.Quote(line)
}

// blankFingerprint returns b with its fingerprint line cut to the bare
// prefix, keeping the line numbers.
func blankFingerprint(b []byte) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, annotate.FingerprintPrefix) {
			lines[i] = annotate.FingerprintPrefix + "\n"
			break
		}
	}
	return []byte(strings.Join(lines, ""))
}
