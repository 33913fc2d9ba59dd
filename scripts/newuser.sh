#!/usr/bin/env bash
# A new user's first hour, from a fresh clone: a new module outside this
# repository adds sentinelgen and sentinelvet with the commands README.md
# gives under "Add it to your module" (read from README.md and run as they
# are, so the two cannot drift), then meets each blind spot a directive can
# fall into, each shown reported or generated correctly:
#
#   - a directive in a //go:build linux file: one generated file per group
#     of platforms, GOOS=linux/darwin/windows builds pass, -check covers
#     every platform whatever GOOS it runs under;
#   - each near-miss spelling: an error naming the fix, non-zero exit;
#   - a directive in a _test.go file: an error;
#   - a generic type: the generated doc comment says one resource is shared
#     by every instantiation;
#   - go vet -vettool=$(go tool -n sentinelvet): a handler edit and a
#     directive edit flagged before go generate runs.
#
#   ./scripts/newuser.sh            # prints the transcript
#   KEEP=1 ./scripts/newuser.sh     # keeps the temporary directory
#
# It clones what is committed (git clone of this checkout), so commit first.
# Modules come as they come to a user: from the module cache when it holds
# them, else from GOPROXY. Every step checks its exit status and output; the
# last line is "newuser: N steps, N failed" and the exit status is 1 when
# any failed. scripts/newuser_test.go runs it.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/sentinelgen-newuser.XXXXXX")
if [ -z "${KEEP:-}" ]; then
	trap 'rm -rf "$work"' EXIT
else
	echo "# keeping $work"
fi
export GOWORK=off GOTOOLCHAIN=local
unset GOOS GOARCH

steps=0
failed=0

# step WANT_EXIT PATTERN CMD...: runs CMD in the current directory, prints
# "$ CMD", its output and its exit status, and counts it failed unless the
# status is WANT_EXIT ("nonzero" for any but 0) and the output matches the
# extended regular expression PATTERN ("" for any output).
step() {
	local want=$1 pattern=$2
	shift 2
	steps=$((steps + 1))
	echo
	echo "\$ $*"
	local out code
	out=$(eval "$@" 2>&1)
	code=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed "s#$work#\$WORK#g"
	echo "(exit $code)"
	local ok=1
	if [ "$want" = nonzero ]; then
		[ "$code" -ne 0 ] || ok=0
	else
		[ "$code" -eq "$want" ] || ok=0
	fi
	if [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
		ok=0
	fi
	if ((!ok)); then
		failed=$((failed + 1))
		echo "!!! step failed: wanted exit $want and output matching /$pattern/"
	fi
}

# section prints a heading of the transcript.
section() {
	echo
	echo "## $*"
}

section "A fresh clone, and a new module that uses it through the tool directive"
cd "$work" || exit 1
step 0 "" git clone --quiet "$repo" sentinelgen
step 0 "" git -C sentinelgen log --oneline -1
mkdir shop && cd shop || exit 1
step 0 "" go mod init example.com/shop
# The install commands as README.md gives them: the sh block after its
# install-from-checkout marker, each line run as it is.
install=$(awk '/<!-- install-from-checkout/ { marked = 1; next }
	marked && /^```sh/ { inblock = 1; next }
	inblock && /^```/ { exit }
	inblock { print }' ../sentinelgen/README.md)
if [ -z "$install" ]; then
	steps=$((steps + 1))
	failed=$((failed + 1))
	echo "!!! README.md has no install-from-checkout block"
fi
while IFS= read -r cmd; do
	[ -n "$cmd" ] && step 0 "" "$cmd"
done <<<"$install"
step 0 "github.com/sentinelgen/sentinelgen/cmd/sentinelgen" "sed -n '/^tool/,/)/p' go.mod"
step 0 "github.com/sentinelgen/sentinelgen/cmd/sentinelvet" "sed -n '/^tool/,/)/p' go.mod"

section "A directive in a //go:build linux file, and a generic type"
mkdir store
cat >store/store.go <<'EOF'
// Package store is a new user's package.
package store

//go:generate go tool sentinelgen

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Store is guarded on every platform.
type Store struct{}

// Get reads a key.
//
//sentinel:resource name=store.get blockHandler=getBlocked
func (s *Store) Get(ctx context.Context, key string) (string, error) { return key, nil }

func (s *Store) getBlocked(ctx context.Context, key string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
EOF
cat >store/sync_linux.go <<'EOF'
package store

import "context"

// Sync is guarded on Linux only, where it calls fdatasync.
//
//sentinel:resource name=store.fsync fallback=syncFallback
func (s *Store) Sync(ctx context.Context) error { return nil }

func (s *Store) syncFallback(ctx context.Context, err error) error { return err }
EOF
cat >store/sync_other.go <<'EOF'
//go:build !linux

package store

import "context"

// Sync does nothing elsewhere, unguarded.
func (s *Store) Sync(ctx context.Context) error { return nil }
EOF
cat >store/cache.go <<'EOF'
package store

import "context"

// Cache is generic: every instantiation shares the resource of Load.
type Cache[K comparable, V any] struct{ m map[K]V }

// Load reads the cache.
//
//sentinel:resource name=store.cacheLoad
func (c *Cache[K, V]) Load(ctx context.Context, k K) (V, error) { return c.m[k], nil }
EOF
step 0 "" go generate ./...
step 0 "sentinel_gen_linux.go" ls store
step 0 "^//go:build linux" "grep -h '^//go:build' store/sentinel_gen*.go"
step 0 "^//go:build !linux" "grep -h '^//go:build' store/sentinel_gen*.go"
for goos in linux darwin windows; do
	step 0 "" GOOS=$goos go build ./...
done
step 0 "" go tool sentinelgen -check ./...
# go tool builds a tool for GOOS: for another platform, run the host
# binary that go tool -n names.
step 0 "" 'GOOS=darwin $(go tool -n sentinelgen) -check ./...'
step 0 "[Ee]very instantiation shares" "grep -n -A1 'instantiation' store/sentinel_gen.go"
# -check judges the Linux file on any platform: a directive edited in
# sync_linux.go is reported from darwin too.
cp store/sync_linux.go "$work/sync_linux.go.orig"
sed -i 's/name=store.fsync/name=store.sync/' store/sync_linux.go
step nonzero "sentinel_gen_linux.go: stale" 'GOOS=darwin $(go tool -n sentinelgen) -check ./...'
cp "$work/sync_linux.go.orig" store/sync_linux.go
step 0 "" 'GOOS=darwin $(go tool -n sentinelgen) -check ./...'

section "Near-miss spellings: each an error naming the fix"
# nearmiss writes a package whose one directive is spelt as $1 and runs the
# generator on it.
nearmiss() {
	rm -rf nearmiss && mkdir nearmiss
	cat >nearmiss/svc.go <<EOF
// Package nearmiss has a misspelt directive.
package nearmiss

import "context"

// Ping is meant to be guarded.
//
$1
func Ping(ctx context.Context) error { return nil }
EOF
	step nonzero "$2" go tool sentinelgen ./nearmiss
}
nearmiss "// sentinel:resource name=nearmiss.ping" "a blank after //.*write //sentinel:resource"
nearmiss "//sentinel: resource name=nearmiss.ping" "a blank after the colon.*write //sentinel:resource"
nearmiss "//Sentinel:resource name=nearmiss.ping" "Sentinel is not lower-case.*write //sentinel:resource"
rm -rf nearmiss && mkdir nearmiss
cat >nearmiss/svc.go <<'EOF'
// Package nearmiss has a directive that is not in a doc comment.
package nearmiss

import "context"

//sentinel:resource name=nearmiss.ping

// Ping is meant to be guarded, but a blank line parts it from the directive.
func Ping(ctx context.Context) error { return nil }
EOF
step nonzero "sentinel:resource" go tool sentinelgen ./nearmiss
rm -rf nearmiss

section "A directive in a _test.go file: an error"
mkdir probe
cat >probe/probe.go <<'EOF'
// Package probe is guarded in its own file.
package probe
EOF
cat >probe/probe_test.go <<'EOF'
package probe

import "context"

// fake is a test double that carries a directive.
type fake struct{}

// Do is in a test file.
//
//sentinel:resource name=probe.fakeDo
func (f *fake) Do(ctx context.Context) error { return nil }
EOF
step nonzero "probe_test.go:10:1: //sentinel:resource in a test file" go tool sentinelgen ./probe
step nonzero "probe_test.go:10:1: //sentinel:resource in a test file" 'go vet -vettool=$(go tool -n sentinelvet) ./probe'
rm -rf probe

section "go vet -vettool=\$(go tool -n sentinelvet): errors as the user types, before go generate"
step 0 "" 'go vet -vettool=$(go tool -n sentinelvet) ./...'
cp store/store.go "$work/store.go.orig"
# The user adds a fallback to the directive before writing it: the
# Analyzer names it (and offers a stub of the exact signature: go fix).
sed -i 's/blockHandler=getBlocked$/blockHandler=getBlocked fallback=getFallback/' store/store.go
step nonzero "store.go:17:[0-9]+: fallback getFallback not found" 'go vet -vettool=$(go tool -n sentinelvet) ./store'
cp "$work/store.go.orig" store/store.go
# The user renames the resource: the generated file built for the
# platform no longer matches, on Linux the Linux one.
sed -i 's/name=store.get /name=store.read /' store/store.go
step nonzero "sentinel_gen_linux.go is stale: it has no resource \"store.read\"; run go generate" 'go vet -vettool=$(go tool -n sentinelvet) ./store'
step nonzero "sentinel_gen.go is stale: it has no resource \"store.read\"; run go generate" 'GOOS=darwin go vet -vettool=$(go tool -n sentinelvet) ./store'
cp "$work/store.go.orig" store/store.go
# The user renames the block handler and forgets the directive: the
# package no longer compiles, so go vet prints the type error (its tools
# see only packages that type-check); the first one is the generated
# file's assertion, which names the handler and says to run go generate.
sed -i 's/func (s \*Store) getBlocked(/func (s *Store) onGetBlocked(/' store/store.go
step nonzero "sentinel_gen_linux.go:[0-9]+:[0-9]+: \(\*Store\).getBlocked undefined" 'go vet -vettool=$(go tool -n sentinelvet) ./store'
step nonzero "blockHandler getBlocked not found .*did you mean onGetBlocked\?" 'go tool sentinelgen ./store'
cp "$work/store.go.orig" store/store.go
sed -i 's/name=store.get /name=store.read /' store/store.go
step 0 "" go generate ./...
step 0 "" 'go vet -vettool=$(go tool -n sentinelvet) ./...'
step 0 "" go tool sentinelgen -check ./...

echo
echo "newuser: $steps steps, $failed failed"
((failed == 0))
