package annotate

import (
	"bytes"
	"go/parser"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignoredFileDiagnostics reports the directives of the package's files
// that the pass's build leaves out (pass.IgnoredFiles) and that no build
// includes at all: //go:build ignore, or a constraint no platform and no
// value of its custom tags satisfies. Those of a file built on other
// platforms are judged by those platforms' passes. A _test.go file left
// out here is a test file all the same, reported as such. Such files are
// parsed into pass.Fset, as go/analysis drivers expect of positions in
// files outside the pass.
func ignoredFileDiagnostics(pass *analysis.Pass) []Diagnostic {
	if strings.HasSuffix(pass.Pkg.Name(), "_test") {
		// An external test package shares its directory's ignored files
		// with the package under test, whose pass reports them.
		return nil
	}
	var out []Diagnostic
	for _, name := range pass.IgnoredFiles {
		base := filepath.Base(name)
		if !strings.HasSuffix(base, ".go") || IsGeneratedFile(base) {
			continue
		}
		src, err := pass.ReadFile(name)
		if err != nil || !bytes.Contains(bytes.ToLower(src), []byte("sentinel")) {
			continue // no directive can be in it
		}
		f, _ := parser.ParseFile(pass.Fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		at := directives(pass.Fset, f)
		if len(at) == 0 {
			continue
		}
		if strings.HasSuffix(base, "_test.go") {
			for _, p := range at {
				out = append(out, testFileDiagnostic(p))
			}
			continue
		}
		x := fileConstraint(pass.Fset, f)
		if x == nil {
			continue // built everywhere: not ignored for its constraints
		}
		free := map[string]bool{}
		freeTags(x, nil, free)
		if len(free) > maxFreeTags {
			continue // too many to try; the generator says so
		}
		names := make([]string, 0, len(free))
		for t := range free {
			names = append(names, t)
		}
		slices.Sort(names)
		if slices.ContainsFunc(universe(names, ports[0]), func(p point) bool { return eval(x, p, nil) }) {
			continue // some build includes it: that platform's pass judges it
		}
		// The generator reports the first directive of such a file.
		out = append(out, unbuiltFileDiagnostic(at[0], x))
	}
	return out
}
