package annotate

import (
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/token"
	"strings"
)

// This file judges build constraints: which platforms a file is compiled
// for. Facts from the go command (go/build's syslist and its file-name
// rules); the go/build/constraint package parses the expressions.

// platform is one GOOS/GOARCH pair.
type platform struct{ goos, goarch string }

func (p platform) String() string { return p.goos + "/" + p.goarch }

// ports is the output of go tool dist list (Go 1.26): every platform a
// file may be written for. The order puts the common ones first, so that
// they are the ones loaded for a group of platforms.
var ports = func() []platform {
	list := "linux/amd64 darwin/arm64 windows/amd64 linux/arm64 darwin/amd64 windows/arm64 windows/386 " +
		"aix/ppc64 android/386 android/amd64 android/arm android/arm64 dragonfly/amd64 freebsd/386 " +
		"freebsd/amd64 freebsd/arm freebsd/arm64 illumos/amd64 ios/amd64 ios/arm64 js/wasm linux/386 " +
		"linux/arm linux/loong64 linux/mips linux/mips64 linux/mips64le linux/mipsle linux/ppc64 " +
		"linux/ppc64le linux/riscv64 linux/s390x netbsd/386 netbsd/amd64 netbsd/arm netbsd/arm64 " +
		"openbsd/386 openbsd/amd64 openbsd/arm openbsd/arm64 openbsd/ppc64 openbsd/riscv64 plan9/386 " +
		"plan9/amd64 plan9/arm solaris/amd64 wasip1/wasm"
	var out []platform
	for _, f := range strings.Fields(list) {
		goos, goarch, _ := strings.Cut(f, "/")
		out = append(out, platform{goos, goarch})
	}
	return out
}()

// knownOS and knownArch are the names go/build recognises in file-name
// suffixes and as platform tags (its syslist), more than dist list's.
var knownOS = setOf("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")

var knownArch = setOf("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

// unixOS are the systems the unix tag selects.
var unixOS = setOf("aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// releaseTags are go1.1 ... go1.N of the toolchain sentinelgen was built
// with, true on every platform.
var releaseTags = setOf(strings.Join(build.Default.ReleaseTags, " "))

// point is one build configuration: a platform and the values of the
// package's other tags (custom tags, cgo), those not listed being false.
type point struct {
	platform
	tags map[string]bool
}

// has reports whether tag is satisfied at p, as the go command decides it;
// fixed holds the tags the user gave (-tags), true everywhere.
func (p point) has(tag string, fixed map[string]bool) bool {
	switch {
	case tag == p.goos || tag == p.goarch:
		return true
	case tag == "unix":
		return unixOS[p.goos]
	case tag == "linux" && p.goos == "android", tag == "solaris" && p.goos == "illumos", tag == "darwin" && p.goos == "ios":
		return true
	case tag == "gc":
		return true
	case tag == "ignore", tag == "gccgo":
		return false
	case knownOS[tag] || knownArch[tag]:
		return false
	}
	return releaseTags[tag] || fixed[tag] || p.tags[tag]
}

// isFreeTag reports whether a tag varies independently of the platform:
// a custom tag or cgo, as opposed to a platform, release or fixed tag.
func isFreeTag(tag string, fixed map[string]bool) bool {
	switch {
	case knownOS[tag], knownArch[tag], releaseTags[tag], fixed[tag]:
		return false
	case tag == "unix", tag == "gc", tag == "gccgo", tag == "ignore":
		return false
	}
	return true
}

// fileConstraint returns the build constraint of a file: its //go:build
// line and what its name's _GOOS, _GOARCH or _GOOS_GOARCH suffix implies,
// joined with &&; nil when the file is built everywhere.
func fileConstraint(fset *token.FileSet, f *ast.File) constraint.Expr {
	var x constraint.Expr
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			if e, err := constraint.Parse(c.Text); err == nil {
				x = and(x, e)
			}
		}
	}
	name := nameConstraint(fset.Position(f.Package).Filename)
	if x != nil && name != nil && implies(x, name) {
		return x // bolt_aix.go with //go:build aix: no "aix && aix"
	}
	return and(x, name)
}

// implies reports whether y holds wherever x does, over every port and
// every value of x's custom tags.
func implies(x, y constraint.Expr) bool {
	free := map[string]bool{}
	freeTags(x, nil, free)
	if len(free) > maxFreeTags {
		return false
	}
	var names []string
	for t := range free {
		names = append(names, t)
	}
	for _, p := range universe(names, ports[0]) {
		if eval(x, p, nil) && !eval(y, p, nil) {
			return false
		}
	}
	return true
}

// nameConstraint is what a file name implies, as go/build's goodOSArchFile
// reads it: the last one or two _-separated words before .go (and _test).
func nameConstraint(filename string) constraint.Expr {
	name := filename[strings.LastIndexAny(filename, `/\`)+1:]
	name, _, _ = strings.Cut(name, ".")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return nil
	}
	l := strings.Split(name[i:], "_") // everything before the first _ is ignored; l[0] is ""
	if n := len(l); l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	switch {
	case n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]]:
		return and(&constraint.TagExpr{Tag: l[n-2]}, &constraint.TagExpr{Tag: l[n-1]})
	case knownOS[l[n-1]] || knownArch[l[n-1]]:
		return &constraint.TagExpr{Tag: l[n-1]}
	}
	return nil
}

// and joins two constraints, either of which may be nil (true).
func and(x, y constraint.Expr) constraint.Expr {
	switch {
	case x == nil:
		return y
	case y == nil:
		return x
	}
	return &constraint.AndExpr{X: x, Y: y}
}

// freeTags lists the free tags an expression mentions.
func freeTags(x constraint.Expr, fixed map[string]bool, into map[string]bool) {
	switch x := x.(type) {
	case *constraint.TagExpr:
		if isFreeTag(x.Tag, fixed) {
			into[x.Tag] = true
		}
	case *constraint.NotExpr:
		freeTags(x.X, fixed, into)
	case *constraint.AndExpr:
		freeTags(x.X, fixed, into)
		freeTags(x.Y, fixed, into)
	case *constraint.OrExpr:
		freeTags(x.X, fixed, into)
		freeTags(x.Y, fixed, into)
	}
}
