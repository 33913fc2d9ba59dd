package annotate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"slices"
	"strconv"
	"strings"
)

// GenFormat is the version of what the generator writes for a given model.
// It is part of every fingerprint, so that a file written by a generator
// whose output differed is stale for the Analyzer too. gen's
// TestGenFormatFollowsTheOutput fails when the golden output changes and
// GenFormat does not: bump it with any change to what gen emits.
const GenFormat = 5

// FingerprintPrefix starts the line of a generated file that holds its
// fingerprint, right after gen's Header line.
const FingerprintPrefix = "// sentinelgen fingerprint: "

// notInOutput are the fields of Package that the output encoding leaves
// out. Dir, Registrations and the positions do not reach the generated
// file. File and Constraint are the generated file's own name and
// //go:build line: the go command has already judged them by compiling
// the file into the pass, and a pass cannot tell them from one platform.
// Types and Reserved are the package scope and its files' import names:
// they decide only which names the generated code avoids, they differ
// between the platforms of one generated file, and a user declaration that
// takes a name the generated file declares is a compile error ("redeclared")
// that the Analyzer reports as such. Every other field, including any added
// later, is in.
var notInOutput = map[string]bool{
	"Dir": true, "File": true, "Constraint": true, "Types": true, "Reserved": true, "Registrations": true,
}

// Fingerprint returns what the generator writes on a generated file's
// FingerprintPrefix line: GenFormat and a hash of the model as the
// generated code depends on it (resources, handlers, signatures, generated
// names, the import names of handler packages), without what differs from
// one checkout or platform to another (positions, the directory, the rest
// of the package scope; see notInOutput). The generator computes it from
// the model it renders, and the Analyzer from the files of its pass, with
// no rendering: equal fingerprints mean the file was generated from these
// directives and signatures by a generator with this output. sentinelgen
// -check stays the byte-exact judge. It fails with ErrUnkeyable for a
// model the encoder cannot describe.
func Fingerprint(pkg *Package) (string, error) {
	buf, err := encodeModel(nil, pkg, outputEncoding)
	if err != nil {
		return "", err
	}
	// gen imports a handler's or matcher's package under a name derived
	// from the name it declares, which only the package scope's imports
	// say: those of them the model names are in.
	e := typeKey{buf: buf}
	for _, p := range referencedImports(pkg) {
		e.str(p[0])
		e.str(p[1])
	}
	sum := sha256.Sum256(e.buf)
	return strconv.Itoa(GenFormat) + "-" + hex.EncodeToString(sum[:16]), nil
}

// referencedImports lists, sorted, the path and declared name of each
// other package whose handler or error value the model names.
func referencedImports(pkg *Package) [][2]string {
	paths := map[string]bool{}
	for _, r := range pkg.Resources {
		for _, h := range []*Handler{r.BlockHandler, r.Fallback, r.DefaultFallback} {
			if h != nil && h.Kind == HandlerFunc && h.PkgPath != pkg.Path {
				paths[h.PkgPath] = true
			}
		}
		for _, m := range slices.Concat(r.Ignore, r.Trace) {
			if m.PkgPath != pkg.Path {
				paths[m.PkgPath] = true
			}
		}
	}
	var out [][2]string
	for p := range paths {
		name := ""
		if pkg.Types != nil {
			for _, imp := range pkg.Types.Imports() {
				if imp.Path() == p {
					name = imp.Name()
				}
			}
		}
		out = append(out, [2]string{p, name})
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// FileFingerprint returns the fingerprint a generated file's syntax tree
// carries, or "" for a file without one (written by a sentinelgen older
// than fingerprints, or for a model that could not be encoded).
func FileFingerprint(f *ast.File) string {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if fp, ok := strings.CutPrefix(c.Text, FingerprintPrefix); ok {
				return strings.TrimSpace(fp)
			}
		}
	}
	return ""
}

// fingerprintFormat returns the GenFormat part of a fingerprint, or -1.
func fingerprintFormat(fp string) int {
	v, _, ok := strings.Cut(fp, "-")
	n, err := strconv.Atoi(v)
	if !ok || err != nil {
		return -1
	}
	return n
}

// describeFormat names the generator of a fingerprint's format for a
// message: "format 1".
func describeFormat(fp string) string {
	if n := fingerprintFormat(fp); n >= 0 {
		return fmt.Sprintf("output format %d", n)
	}
	return "an unknown output format"
}
