package annotate

import (
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RuntimePath is the import path of the runtime package: the one whose
// *BlockError a blockHandler receives, whose NewResource and WithEntrance
// calls name resources, and which generated code calls. It is spelt here
// only; other packages use this constant.
const RuntimePath = "github.com/sentinelgen/sentinelgen/runtime"

// GeneratedFileName is the name of the file sentinelgen writes in each
// package. Load leaves its content out, and Check ignores what it declares.
const GeneratedFileName = "sentinel_gen.go"

// IsGeneratedFile reports whether a file's base name is one sentinelgen
// writes: GeneratedFileName, or sentinel_gen_<constraint>.go, which holds
// the package's resources for one build constraint (see Package.File).
// Test files (_test.go) are never generated.
func IsGeneratedFile(base string) bool {
	if base == GeneratedFileName {
		return true
	}
	return strings.HasPrefix(base, "sentinel_gen_") && strings.HasSuffix(base, ".go") && !strings.HasSuffix(base, "_test.go")
}

// defaultResourceName is the resource name used when a directive has no
// name: the import path, then Type.Method or Func, joined with dots. It is
// unique in a module without coordination and readable in dashboards.
func defaultResourceName(pkg *types.Package, recvType, fn string) string {
	if recvType == "" {
		return pkg.Path() + "." + fn
	}
	return pkg.Path() + "." + recvType + "." + fn
}

// guardedName returns the generated counterpart of a user name: "Guarded"
// plus the name for an exported one, "guarded" plus the name with its first
// letter upper-cased for an unexported one (orderService -> guardedOrderService).
func guardedName(name string) string {
	return prefixName("Guarded", "guarded", name)
}

// constructorName returns NewGuardedT for T and newGuardedT for t.
func constructorName(typeName string) string {
	return prefixName("NewGuarded", "newGuarded", typeName)
}

func prefixName(exported, unexported, name string) string {
	r, size := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return exported + name
	}
	return unexported + string(unicode.ToUpper(r)) + name[size:]
}
