#!/usr/bin/env bash
# Extracts the runtime of other commits into this module, so that the
# rotating harness (rotate_test.go) compares them with this tree in one
# binary:
#
#   ./abcopy.sh 6c85fa1 main          # copies as internal/abcopy/v1, v2
#   go test -tags abcopy -run '^$' -bench Rotate -count 5 .
#   ./abcopy.sh -clean
#
# Each copy is the commit's runtime/ without tests, its imports rewritten to
# the copy's path, and a generated abcopy_vN_test.go (build tag abcopy)
# registering a variant named after the revision. Copies and generated files
# are ignored by git.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
dest=internal/abcopy
rm -rf "$dest" abcopy_v*_test.go
[[ "${1:-}" == -clean ]] && exit 0
mod=github.com/sentinelgen/sentinelgen
n=0
for rev in "$@"; do
	n=$((n + 1))
	dir="$dest/v$n"
	mkdir -p "$dir"
	git -C .. archive "$rev" runtime | tar -x -C "$dir"
	find "$dir" -name '*_test.go' -delete
	find "$dir" -name '*.go' -exec sed -i "s#\"$mod/runtime#\"$mod/bench/$dir/runtime#" {} +
	name="$(git rev-parse --short "$rev")"
	[[ "$rev" =~ ^[0-9a-f]+$ ]] || name="$rev-$name"
	# LoadRules took (flow, degrade) before issue 14 and runtime.Rules{...} since.
	load='copied.LoadRules(flow, degrade)'
	if grep -q '^type Rules struct' "$dir"/runtime/*.go; then
		load='copied.LoadRules(copied.Rules{Flow: flow, Degrade: degrade})'
	fi
	# Commits with Resource.EntryTo also get a "-to" variant, and those with
	# Entry.InPlace (what generated wrappers call since) an "-inplace" one,
	# as this tree's runtime has.
	inplace=''
	if grep -q '^func (e \*Entry) InPlace(' "$dir"/runtime/*.go; then
		inplace='variants = append(variants, variant{name: "@NAME@-inplace", pass: func(i int) func(int) { r := res["pass"][i]; return func(n int) { ctx := context.Background(); var e copied.Entry; for range n { if be := r.EntryTo(e.InPlace(), ctx); be != nil { panic(be) }; e.Exit() } } }})'
	fi
	to=''
	if grep -q '^func (r \*Resource) EntryTo(' "$dir"/runtime/*.go; then
		to='variants = append(variants, variant{name: "@NAME@-to", pass: func(i int) func(int) { r := res["pass"][i]; return func(n int) { ctx := context.Background(); var e copied.Entry; for range n { if be := r.EntryTo(\&e, ctx); be != nil { panic(be) }; e.Exit() } } }})'
	fi
	sed -e "s#@TO@#$to#" -e "s#@INPLACE@#$inplace#" -e "s#@PKG@#$mod/bench/$dir/runtime#" -e "s#@NAME@#$name#" -e "s#@LOAD@#$load#" abcopy.tmpl >"abcopy_v${n}_test.go"
	gofmt -w "abcopy_v${n}_test.go"
	echo "v$n: $rev ($name)" >&2
done
