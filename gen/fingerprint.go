package gen

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"go/types"
	"slices"
	"sync"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// fingerprintVersion starts every fingerprint. The generator binary's
// identity is part of every cache key anyway; this only separates encodings
// should one binary ever hold two.
const fingerprintVersion = "sentinelgen model fingerprint v1"

// errUnfingerprintable is returned for a model the encoder cannot describe
// completely (a type kind it does not know, a method that is not among the
// package's resources). The caller then renders: a fingerprint that misses
// part of the input could map two different outputs to one key.
var errUnfingerprintable = errors.New("model cannot be fingerprinted")

// modelFingerprint hashes everything Generate reads from pkg, so that two
// packages with equal fingerprints give equal output from the same
// generator. It leaves out only what Generate never reads: the source
// positions, which change with every edit above a directive. Each value is
// written with its length or a tag first, so no two models share an
// encoding by running one field into the next.
//
// TestFingerprintCoversTheModel fails when a field is added to the model
// without being listed here or among the positions.
func modelFingerprint(pkg *annotate.Package) (sum [sha256.Size]byte, err error) {
	defer func() {
		// A model broken enough to panic here (a nil where a value belongs)
		// is for Generate to report.
		if p := recover(); p != nil {
			sum, err = [sha256.Size]byte{}, fmt.Errorf("%w: %v", errUnfingerprintable, p)
		}
	}()
	// The encoding is built in memory and hashed once: a hash's Write per
	// small field would cost more than the fields. The buffers, several
	// kilobytes for ten methods, are reused from package to package.
	bp := encodingBuffers.Get().(*[]byte)
	e := fingerprinter{buf: (*bp)[:0]}
	defer func() {
		*bp = e.buf
		encodingBuffers.Put(bp)
	}()
	e.str(fingerprintVersion)
	e.str(pkg.Path)
	e.str(pkg.Name)
	e.names(sortedKeys(pkg.Reserved))
	if pkg.Types == nil {
		e.int(-1)
	} else {
		e.names(pkg.Types.Scope().Names()) // sorted by go/types
		imports := pkg.Types.Imports()
		e.int(len(imports))
		for _, imp := range imports {
			e.str(imp.Path())
			e.str(imp.Name())
		}
	}

	index := make(map[*annotate.Resource]int, len(pkg.Resources))
	e.int(len(pkg.Resources))
	for i, r := range pkg.Resources {
		index[r] = i
		e.resource(r)
	}
	e.int(len(pkg.Wrappers))
	for _, w := range pkg.Wrappers {
		e.str(w.TypeName)
		e.str(w.Constructor)
		e.receiver(w.Recv)
		e.int(len(w.Methods))
		for _, m := range w.Methods {
			i, ok := index[m]
			if !ok {
				return sum, errUnfingerprintable
			}
			e.int(i)
		}
	}
	if e.err != nil {
		return sum, e.err
	}
	return sha256.Sum256(e.buf), nil
}

// encodingBuffers holds *[]byte for modelFingerprint.
var encodingBuffers = sync.Pool{New: func() any { return new([]byte) }}

// fingerprinter encodes a model. The first error sticks.
type fingerprinter struct {
	buf []byte
	err error
}

func (e *fingerprinter) int(n int) {
	e.buf = binary.AppendVarint(e.buf, int64(n))
}

func (e *fingerprinter) bool(b bool) {
	if b {
		e.int(1)
	} else {
		e.int(0)
	}
}

func (e *fingerprinter) str(s string) {
	e.int(len(s))
	e.buf = append(e.buf, s...)
}

func (e *fingerprinter) names(ns []string) {
	e.int(len(ns))
	for _, n := range ns {
		e.str(n)
	}
}

func (e *fingerprinter) resource(r *annotate.Resource) {
	e.str(r.Name)
	e.str(r.GeneratedName)
	e.int(int(r.EntryType))
	e.int(int(r.ResourceType))
	e.function(r.Func)
	for _, h := range []*annotate.Handler{r.BlockHandler, r.Fallback, r.DefaultFallback} {
		e.handler(h)
	}
	e.matchers(r.Ignore)
	e.matchers(r.Trace)
}

func (e *fingerprinter) function(f *annotate.Func) {
	if f == nil {
		e.int(-1)
		return
	}
	e.str(f.Name)
	e.receiver(f.Recv)
	e.typeParams(f.TypeParams)
	e.vars(f.Params)
	e.vars(f.Results)
	e.bool(f.Variadic)
	e.bool(f.HasContext)
	e.int(f.ErrorResult)
}

func (e *fingerprinter) receiver(r *annotate.Receiver) {
	if r == nil {
		e.int(-1)
		return
	}
	e.str(r.TypeName)
	e.bool(r.Pointer)
	e.typeParams(r.TypeParams)
}

func (e *fingerprinter) typeParams(tps []annotate.TypeParam) {
	e.int(len(tps))
	for _, tp := range tps {
		e.str(tp.Name)
		e.typ(tp.Constraint)
	}
}

func (e *fingerprinter) vars(vs []annotate.Var) {
	e.int(len(vs))
	for _, v := range vs {
		e.str(v.Name)
		e.typ(v.Type)
	}
}

func (e *fingerprinter) handler(h *annotate.Handler) {
	if h == nil {
		e.int(-1)
		return
	}
	e.int(int(h.Role))
	e.int(int(h.Kind))
	e.str(h.Written)
	e.str(h.PkgPath)
	e.str(h.Name)
	e.bool(h.TakesError)
	if h.Type == nil {
		e.int(-1)
	} else {
		e.typ(h.Type)
	}
}

func (e *fingerprinter) matchers(ms []annotate.ErrorMatcher) {
	e.int(len(ms))
	for _, m := range ms {
		e.int(int(m.Kind))
		e.str(m.Written)
		e.str(m.PkgPath)
		e.str(m.Name)
		e.typ(m.Type)
	}
}

// Tags of the type encoding, one per kind of type.
const (
	tagNil = iota
	tagBasic
	tagAlias
	tagNamed
	tagTypeParam
	tagPointer
	tagSlice
	tagArray
	tagMap
	tagChan
	tagSignature
	tagStruct
	tagInterface
	tagUnion
)

// typ writes a type as everything typeExpr and packageCollector read from
// it. A named type or alias stops at its name, package and type arguments
// (its underlying type is not written in the generated file), and a type
// parameter at its index and name (its constraint is written where it is
// declared), so the walk always ends, even on recursive types.
func (e *fingerprinter) typ(t types.Type) {
	switch t := t.(type) {
	case nil:
		e.int(tagNil)
	case *types.Basic:
		e.int(tagBasic)
		e.int(int(t.Kind()))
		e.str(t.Name())
	case *types.Alias:
		e.int(tagAlias)
		e.object(t.Obj())
		e.typeList(t.TypeArgs())
	case *types.Named:
		e.int(tagNamed)
		e.object(t.Obj())
		e.typeList(t.TypeArgs())
	case *types.TypeParam:
		e.int(tagTypeParam)
		e.int(t.Index())
		e.str(t.Obj().Name())
	case *types.Pointer:
		e.int(tagPointer)
		e.typ(t.Elem())
	case *types.Slice:
		e.int(tagSlice)
		e.typ(t.Elem())
	case *types.Array:
		e.int(tagArray)
		e.int(int(t.Len()))
		e.typ(t.Elem())
	case *types.Map:
		e.int(tagMap)
		e.typ(t.Key())
		e.typ(t.Elem())
	case *types.Chan:
		e.int(tagChan)
		e.int(int(t.Dir()))
		e.typ(t.Elem())
	case *types.Signature:
		e.int(tagSignature)
		e.bool(t.Variadic())
		tps := t.TypeParams()
		e.int(tps.Len())
		for i := range tps.Len() {
			e.typ(tps.At(i))
		}
		e.tuple(t.Params())
		e.tuple(t.Results())
	case *types.Struct:
		e.int(tagStruct)
		e.int(t.NumFields())
		for i := range t.NumFields() {
			f := t.Field(i)
			e.str(f.Name())
			e.bool(f.Embedded())
			e.str(t.Tag(i))
			e.typ(f.Type())
		}
	case *types.Interface:
		e.int(tagInterface)
		e.bool(t.IsImplicit())
		e.int(t.NumEmbeddeds())
		for i := range t.NumEmbeddeds() {
			e.typ(t.EmbeddedType(i))
		}
		e.int(t.NumExplicitMethods())
		for i := range t.NumExplicitMethods() {
			m := t.ExplicitMethod(i)
			e.str(m.Name())
			e.typ(m.Type())
		}
	case *types.Union:
		e.int(tagUnion)
		e.int(t.Len())
		for i := range t.Len() {
			e.bool(t.Term(i).Tilde())
			e.typ(t.Term(i).Type())
		}
	default:
		e.err = fmt.Errorf("%w: type %T", errUnfingerprintable, t)
	}
}

// object writes a type's name with its package's path and declared name:
// the generated file imports the path under a name derived from the latter.
func (e *fingerprinter) object(obj *types.TypeName) {
	e.str(obj.Name())
	if pkg := obj.Pkg(); pkg != nil {
		e.str(pkg.Path())
		e.str(pkg.Name())
	} else {
		e.int(-1)
	}
}

func (e *fingerprinter) typeList(l *types.TypeList) {
	e.int(l.Len())
	for i := range l.Len() {
		e.typ(l.At(i))
	}
}

func (e *fingerprinter) tuple(t *types.Tuple) {
	e.int(t.Len())
	for i := range t.Len() {
		e.typ(t.At(i).Type())
	}
}

// sortedKeys returns the set's keys in order (map order is random). All
// keys count, whatever their value: names reads them that way.
func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
