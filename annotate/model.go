package annotate

import (
	"go/token"
	"go/types"
	"time"
)

// This file is the seam between annotate and gen: everything gen needs to
// emit a package's sentinel_gen.go is here, already checked. gen reads these
// values and the go/types types they carry; it never looks at go/ast.

// Package is the checked model of one Go package's directives.
type Package struct {
	Path string // import path, e.g. "example.com/shop/orders"
	Name string // package name, e.g. "orders"
	Dir  string // directory holding the package's files
	// File is the base name of the generated file this model is for:
	// GeneratedFileName, or, when the package has directives in files with
	// build constraints, one sentinel_gen_*.go per group of platforms.
	File string
	// Constraint is the //go:build expression File carries ("" for none):
	// the model was loaded for one platform that satisfies it, and every
	// platform it admits sees the same directives.
	Constraint string
	Types      *types.Package // the type-checked package (without the previous generated file)
	Resources  []*Resource    // in source order (file name, then offset)
	Wrappers   []*Wrapper     // one per receiver type with annotated methods, in source order
	// Reserved holds every package-scope name declared by the user's files and
	// every imported package name, so generated identifiers can avoid them.
	Reserved map[string]bool
	// Registrations are the names the user's files pass to the runtime by
	// hand as string literals, in source order: resources registered with
	// runtime.NewResource and entrances set with runtime.WithEntrance. Names
	// built at run time cannot be seen. gen does not read them; the rule
	// linter does.
	Registrations []Registration
}

// Registration is one string literal passed to runtime.NewResource (a
// resource name) or runtime.WithEntrance (an entrance name).
type Registration struct {
	Kind RegistrationKind
	Name string         // the literal's value
	Pos  token.Position // the literal's position
}

// RegistrationKind says which runtime function a Registration's literal
// is passed to.
type RegistrationKind uint8

const (
	// RegisterResource is runtime.NewResource(name, ...).
	RegisterResource RegistrationKind = iota
	// SetEntrance is runtime.WithEntrance(ctx, name).
	SetEntrance
)

// Resource is one annotated function or method.
type Resource struct {
	Name            string         // resource name used by rules (directive `name`, or the default)
	Pos             token.Position // position of the `//sentinel:resource` comment
	Func            *Func          // the annotated function or method
	BlockHandler    *Handler       // nil when the directive has no blockHandler
	Fallback        *Handler       // nil when the directive has no fallback
	DefaultFallback *Handler       // nil when the directive has no defaultFallback
	Ignore          []ErrorMatcher // errors passed through unchanged (checked before Trace)
	Trace           []ErrorMatcher // if non-empty, only these errors are traced
	EntryType       EntryType      // directive `entryType`, default EntryOut
	ResourceType    ResourceType   // directive `resourceType`, default ResourceCommon
	// Timeout is the directive's `timeout`: the deadline each call (each
	// attempt, with Retries) is given through its context; 0 for none.
	Timeout time.Duration
	// Retries is the directive's `retries`: how many times a failed call is
	// tried again; 0 for none. RetryBackoff bounds the first retry's random
	// wait (doubling for each later one) and RetryBudget is the share of
	// calls that may be retried; both are set, to their defaults when the
	// directive does not give them, only when Retries is.
	Retries      int
	RetryBackoff time.Duration
	RetryBudget  float64
	// HotParams are the parameters hot-parameter rules index, with their
	// key kinds: Func.Params after a leading context.Context (see HotParam).
	HotParams []HotParam
	// GeneratedName is the exported or unexported name of the generated
	// wrapper: for a method, the method name itself (on the wrapper type); for
	// a package-level function F, "GuardedF" (or "guardedF" for f).
	GeneratedName string
}

// Func describes the annotated function or method's signature.
type Func struct {
	Name       string         // function or method name
	Pos        token.Position // position of the name in its declaration
	Recv       *Receiver      // nil for a package-level function
	TypeParams []TypeParam    // type parameters of a generic package-level function
	Params     []Var          // parameters, receiver excluded
	Results    []Var          // results
	Variadic   bool           // the last parameter is ...T (its Var.Type is the slice []T)
	HasContext bool           // Params[0] has type context.Context
	// ErrorResult is the index in Results of the result of type error, or -1.
	// annotate guarantees that, when present, it is the last result.
	ErrorResult int
}

// Receiver describes the receiver type of an annotated method.
type Receiver struct {
	TypeName   string      // the named type, e.g. "OrderService"
	Pointer    bool        // the method has a pointer receiver
	TypeParams []TypeParam // the type parameters of a generic receiver type, in order
}

// TypeParam is one type parameter with its constraint.
type TypeParam struct {
	Name       string
	Constraint types.Type
}

// Var is one parameter or result. Name is "" for an unnamed one and may be
// "_"; gen picks its own names and never relies on these.
type Var struct {
	Name string
	Type types.Type
}

// Wrapper is the guarded type generated for one receiver type: GuardedT (or
// guardedT for an unexported t), with constructor NewGuardedT (newGuardedT).
type Wrapper struct {
	Recv        *Receiver   // the receiver type being wrapped
	TypeName    string      // "GuardedT" or "guardedT"
	Constructor string      // "NewGuardedT" or "newGuardedT"
	Methods     []*Resource // annotated methods of this type, in source order
}

// HandlerRole says which directive key named a handler.
type HandlerRole uint8

const (
	RoleBlockHandler    HandlerRole = iota // RoleBlockHandler is `blockHandler`.
	RoleFallback                           // RoleFallback is `fallback`.
	RoleDefaultFallback                    // RoleDefaultFallback is `defaultFallback`.
)

// HandlerKind says how a handler is called.
type HandlerKind uint8

const (
	// HandlerMethod is a method in the receiver's method set, called on the
	// wrapped value (possibly promoted through embedding).
	HandlerMethod HandlerKind = iota
	// HandlerFunc is a package-level function, in this package (PkgPath equal
	// to the package's path) or an imported one.
	HandlerFunc
)

// Handler is a resolved, signature-checked handler.
type Handler struct {
	Role    HandlerRole
	Kind    HandlerKind
	Written string         // the name as written in the directive, e.g. "orders.Fallback"
	PkgPath string         // for HandlerFunc: the import path of the function's package
	Name    string         // the method or function name
	Pos     token.Position // position of the handler name inside the directive
	DeclPos token.Position // position of the handler's declaration
	// TakesError is true when the handler's last parameter receives the error
	// (the *runtime.BlockError for a blockHandler, which always takes it; an
	// error for fallback and defaultFallback, where it is optional).
	TakesError bool
	// Type is the handler's signature as declared (for a method, without the
	// receiver). gen uses it for the compile-time assertion.
	Type *types.Signature
}

// MatcherKind says how an ignore/trace entry matches an error.
type MatcherKind uint8

const (
	// MatchValue matches with errors.Is against a package-level error variable.
	MatchValue MatcherKind = iota
	// MatchType matches with errors.As against a type implementing error.
	MatchType
)

// ErrorMatcher is one entry of `ignore=` or `trace=`.
type ErrorMatcher struct {
	Kind    MatcherKind
	Written string         // as written, e.g. "*NotFoundError" or "io.EOF"
	Pos     token.Position // position inside the directive
	PkgPath string         // package of the variable or type
	Name    string         // variable or type name
	// Type is, for MatchType, the type an errors.As target points to (e.g.
	// *NotFoundError for "*NotFoundError"); for MatchValue, the variable's type.
	Type types.Type
}

// EntryType is the directive's `entryType`.
type EntryType uint8

const (
	EntryOut EntryType = iota // EntryOut is `entryType=out`, the default.
	EntryIn                   // EntryIn is `entryType=in`.
)

// ResourceType is the directive's `resourceType`; the values match
// runtime.ResourceType's order.
type ResourceType uint8

const (
	ResourceCommon  ResourceType = iota // ResourceCommon is `resourceType=common`, the default.
	ResourceWeb                         // ResourceWeb is `resourceType=web`.
	ResourceRPC                         // ResourceRPC is `resourceType=rpc`.
	ResourceGateway                     // ResourceGateway is `resourceType=gateway`.
	ResourceDB                          // ResourceDB is `resourceType=db`.
	ResourceCache                       // ResourceCache is `resourceType=cache`.
	ResourceMQ                          // ResourceMQ is `resourceType=mq`.
)

// Diagnostic is one problem found in the code, positioned at the offending
// directive key or value. Related points at other places that explain it
// (the handler's declaration, the other resource with the same name).
type Diagnostic struct {
	Pos     token.Position
	Message string
	Related []RelatedInfo
	// Fixes are mechanical edits that resolve the problem, each one a
	// complete alternative (the analyzer's SuggestedFixes). The command
	// line does not apply them. None of them edits a generated file.
	Fixes []Fix
}

// RelatedInfo is a secondary position of a Diagnostic.
type RelatedInfo struct {
	Pos     token.Position
	Message string
}
