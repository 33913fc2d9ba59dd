package annotate

import (
	"cmp"
	"go/token"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/suggest"
)

// CatalogEntry describes one declared resource for people and tools that
// write rules: which name to use, where the guarded code is and what answers
// a blocked or failed call. The JSON field names are part of the command
// line's output contract (sentinelgen resources -json) and stay stable.
type CatalogEntry struct {
	// Name is the resource name rules refer to.
	Name string `json:"name"`
	// Package is the import path of the declaring package.
	Package string `json:"package"`
	// Function is the guarded function without its package, a method in
	// method-expression form: "CreateOrder", "(*OrderService).CreateOrder",
	// "(Cache[K, V]).Get".
	Function string `json:"function"`
	// File and Line locate the //sentinel:resource directive.
	File string `json:"file"`
	Line int    `json:"line"`
	// BlockHandler, Fallback and DefaultFallback are the handler names as
	// written in the directive, "" when absent.
	BlockHandler    string `json:"blockHandler"`
	Fallback        string `json:"fallback"`
	DefaultFallback string `json:"defaultFallback"`
	// EntryType is "in" or "out".
	EntryType string `json:"entryType"`
	// ResourceType is "common", "web", "rpc", "gateway", "db", "cache" or "mq".
	ResourceType string `json:"resourceType"`
}

// Catalog lists the resources of pkgs sorted by name (then file and line,
// which only matters for packages loaded by separate runs, since one run
// rejects duplicate names).
func Catalog(pkgs []*Package) []CatalogEntry {
	var out []CatalogEntry
	type at struct {
		name string
		pos  token.Position
	}
	seen := map[at]bool{}
	for _, p := range pkgs {
		for _, r := range p.Resources {
			// A package generated per build constraint has one model per
			// variant, which share the directives of its unconstrained
			// files: each directive is one entry.
			if seen[at{r.Name, r.Pos}] {
				continue
			}
			seen[at{r.Name, r.Pos}] = true
			out = append(out, CatalogEntry{
				Name:            r.Name,
				Package:         p.Path,
				Function:        funcDisplayName(r.Func),
				File:            r.Pos.Filename,
				Line:            r.Pos.Line,
				BlockHandler:    writtenName(r.BlockHandler),
				Fallback:        writtenName(r.Fallback),
				DefaultFallback: writtenName(r.DefaultFallback),
				EntryType:       EntryTypeName(r.EntryType),
				ResourceType:    ResourceTypeName(r.ResourceType),
			})
		}
	}
	slices.SortFunc(out, func(a, b CatalogEntry) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// funcDisplayName writes fn as CatalogEntry.Function documents.
func funcDisplayName(fn *Func) string {
	if fn == nil {
		return ""
	}
	if fn.Recv == nil {
		return fn.Name
	}
	recv := fn.Recv.TypeName
	if len(fn.Recv.TypeParams) > 0 {
		names := make([]string, len(fn.Recv.TypeParams))
		for i, tp := range fn.Recv.TypeParams {
			names[i] = tp.Name
		}
		recv += "[" + strings.Join(names, ", ") + "]"
	}
	if fn.Recv.Pointer {
		recv = "*" + recv
	}
	return "(" + recv + ")." + fn.Name
}

func writtenName(h *Handler) string {
	if h == nil {
		return ""
	}
	return h.Written
}

// EntryTypeName returns the directive's spelling of t ("in" or "out").
func EntryTypeName(t EntryType) string {
	return keyOf(entryTypes, t)
}

// ResourceTypeName returns the directive's spelling of t ("common", "web", ...).
func ResourceTypeName(t ResourceType) string {
	return keyOf(resourceTypes, t)
}

// keyOf inverts one of the directive's small value tables; the tables are
// the single source of the spellings.
func keyOf[V comparable](m map[string]V, v V) string {
	for k, x := range m {
		if x == v {
			return k
		}
	}
	return ""
}

// ClosestName returns the candidate nearest to name, ignoring case, when it
// is close enough to be a plausible typo (at most a third of the name's
// length in edits), and "" otherwise. It is the suggestion the directive
// checks make, offered to other tools (the rule linter) so that both
// suggest alike.
func ClosestName(name string, candidates []string) string {
	return suggest.Closest(name, candidates)
}
