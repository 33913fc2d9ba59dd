// Package annotate finds //sentinel:resource directives, checks them against
// the type-checked code, and turns them into the model that package gen
// writes wrappers from.
//
// # Directive
//
// A directive is a line of the doc comment of a method or package-level
// function. Like //go:generate, it has no space after the slashes, so gofmt
// keeps it and go doc hides it:
//
//	// CreateOrder places an order.
//	//
//	//sentinel:resource name=createOrder blockHandler=createOrderBlocked fallback=createOrderFallback
//	func (s *OrderService) CreateOrder(ctx context.Context, req *Req) (*Order, error)
//
// The arguments are key=value pairs separated by blanks. A value that holds
// blanks or '=' is written as a Go double-quoted string: name="GET /orders".
// ParseDirective documents the grammar.
//
// # Keys
//
//   - name: the resource name rules refer to. The default is the import path
//     followed by .Type.Method for a method or .Func for a function, e.g.
//     example.com/shop/orders.OrderService.CreateOrder. Names must be unique
//     among all packages of one run.
//   - blockHandler: called instead of the method when the runtime blocks the
//     call.
//   - fallback: called when the method returns a traced error, and on a block
//     when there is no blockHandler.
//   - defaultFallback: like fallback, but shared by many methods, so it
//     takes none of their parameters.
//   - ignore: errors passed through unchanged: neither traced nor handed to a
//     fallback. trace: when given, only these errors are traced; others pass
//     through. Both are comma-separated lists of package-level error
//     variables (Err, pkg.Err; matched with errors.Is) and error types (T,
//     *T, pkg.T, *pkg.T; matched with errors.AsType). ignore wins over trace.
//   - entryType: in or out (default out). resourceType: common (default),
//     web, rpc, gateway, db, cache or mq.
//
// # Handlers
//
// For a method of T, a plain name h is looked up in the method set of *T
// (so methods promoted from embedded fields count, as a Java superclass's
// do), then among the package's functions. pkg.H names an exported function
// of a package the file imports, by the file's name for it (Java's
// blockHandlerClass and fallbackClass). The handlers of a package-level
// function are functions. The handlers of a method of a generic type are
// methods of that type; those of a generic function are generic functions
// with as many type parameters, instantiated with the function's own.
//
// With the method's parameters P (receiver excluded) and results R:
//
//	blockHandler     func(P, blockErr *runtime.BlockError) R
//	fallback         func(P) R   or   func(P, err error) R
//	defaultFallback  func() R    or   func(err error) R
//
// A handler of a variadic method M(a A, opts ...O) takes the variadic
// parameter as a slice, h(a A, opts []O, ...), and may not itself be
// variadic. A method whose results do not end in error can report a block
// only through a handler, so it needs at least one.
//
// # Hot parameters
//
// Hot-parameter rules (runtime.ParamFlowRule) limit calls per value of one
// argument. Their ParamIdx counts the parameters after a leading
// context.Context, which a Java method does not have, so Detail(ctx, sku
// string) has sku at 0 as Java's detail(String sku) does; without a
// context.Context every parameter counts. Resource.HotParams lists them
// with the key each one gives, decided from its go/types type (a named
// type counts by its underlying type): a string, a signed or unsigned
// integer, a float or a bool; a type with the method ParamFlowKey() string
// (Sentinel's ParamFlowArgument), whose result is the key, called only on a
// non-nil pointer or interface; a slice of strings, integers, floats or
// bools, each element a key; a type parameter whose type set is all of one
// of those kinds. Anything else (structs, maps, pointers, complex numbers,
// arrays, slices of key-method types) cannot be a key.
//
// # Generated names
//
// gen declares, for a type T with guarded methods, GuardedT and NewGuardedT
// (guardedT and newGuardedT for an unexported t: orderService gives
// guardedOrderService), and GuardedF (guardedF) for a function F. A user
// declaration with one of those names is reported.
//
// # Checking and loading
//
// Check runs every check on one package that is already parsed and
// type-checked, given exactly what a go/analysis pass holds (file set,
// files, *types.Package, *types.Info, and the type errors in
// CheckOptions), and returns the model and positioned diagnostics. Load
// runs the same code on every package it loads.
//
// Load needs syntax and types for the target packages and only compiler
// export data for their dependencies. When every target compiles, it runs
// the go command once (go list -export -deps), parses the targets while
// that runs, and type-checks their declarations against the export data;
// from the second run on it does that during go list too, against the
// previous run's listing (kept in the golist directory of the cache that
// SENTINELGEN_CACHE names, as gen's cache is), and keeps the result when go
// list confirms that listing. The sizes of types follow the architecture
// the go command reports (go env GOARCH).
// Otherwise it uses golang.org/x/tools/go/packages, which reports list,
// parse and type errors with their positions; both give the same result.
// A package with a syntax error yields its syntax errors alone, as the go
// command reports it: what the parser skipped would make other findings
// false. The previous output, GeneratedFileName, is reduced to its package
// clause during the load, so a stale file never blocks regeneration; the
// "undefined" errors this causes for the generated names themselves are
// tolerated, and every other error is reported.
//
// Directives in files with build constraints (a //go:build line, or a
// name such as store_windows.go) are generated for every platform, not
// only the one sentinelgen runs on: Load groups the platforms (each port
// of go tool dist list, and each value of the custom tags the constraints
// name) by which of those files they compile, loads the package once for
// one platform of each group, and returns one model per group, whose File
// (sentinel_gen.go, sentinel_gen_linux.go, ...) carries a //go:build line
// admitting exactly that group. Tags given with Options.Tags hold on every
// platform. Directives in _test.go files, and in files no build includes,
// are reported: nothing would be generated for them.
//
// # Analyzer
//
// Analyzer runs Check in any go/analysis driver (go vet -vettool, go fix
// -fixtool, golangci-lint, cmd/sentinelvet), with suggested fixes, and
// reports directives in test files and in files no build includes as Load
// does. It also reports the generated file built for the pass's platform
// when it is missing, stale or left over, without rendering it: the
// generator writes the model's Fingerprint on the line after its header,
// and the Analyzer compares it with the fingerprint of the pass's own
// directives. sentinelgen -check remains the byte-exact comparison.
package annotate
