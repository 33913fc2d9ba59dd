#!/usr/bin/env bash
# Builds a golangci-lint with the sentinel module plugin (lintplugin/) and
# shows, on a sample module, the diagnostic, the fix (run --fix) and what
# --fast-only does to it.
#
# golangci-lint custom builds from a git clone of golangci-lint and resolves
# the plugin's requirements through the module proxy, where this checkout of
# sentinelgen is not. So by default the script does what golangci-lint
# custom does, from the module proxy: take golangci-lint's module source,
# add the plugin's import to cmd/golangci-lint/plugins.go, point the plugin
# and sentinelgen at this checkout (replace), go mod tidy, go build.
# MODE=custom runs golangci-lint custom itself instead (it needs git access
# to github.com and a tagged sentinelgen).
#
# Takes minutes the first time (golangci-lint's dependencies), so it is not
# part of CI. Usage: scripts/golangci-plugin.sh [workdir]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=${GOLANGCI_LINT_VERSION:-v2.15.0}
work=${1:-$(mktemp -d)}
mode=${MODE:-proxy}
mkdir -p "$work"
export GOWORK=off GOFLAGS=-mod=mod
echo "== workdir $work, golangci-lint $version, mode $mode"

gcl="$work/custom-gcl"
case "$mode" in
custom)
	command -v golangci-lint >/dev/null || go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version"
	sed -e "s#^    version: latest#    path: $root/lintplugin#" "$root/lintplugin/.custom-gcl.yml" |
		sed -e "s#^destination: .*#destination: $work#" >"$work/.custom-gcl.yml"
	(cd "$work" && golangci-lint custom -v)
	;;
proxy)
	src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	rm -rf "$work/golangci-lint"
	cp -r "$src" "$work/golangci-lint"
	chmod -R u+w "$work/golangci-lint"
	cd "$work/golangci-lint"
	cat >cmd/golangci-lint/plugins.go <<'GO'
package main

import (
	_ "github.com/sentinelgen/sentinelgen/lintplugin"
)
GO
	go mod edit \
		-replace "github.com/sentinelgen/sentinelgen/lintplugin=$root/lintplugin" \
		-replace "github.com/sentinelgen/sentinelgen=$root" \
		-require "github.com/sentinelgen/sentinelgen/lintplugin@v0.0.0"
	go mod tidy
	go build -trimpath -o "$gcl" ./cmd/golangci-lint
	;;
*)
	echo "unknown MODE $mode (proxy or custom)" >&2
	exit 2
	;;
esac
"$gcl" version

# The sample: a misspelt blockHandler and a fallback that does not exist.
sample="$work/sample"
rm -rf "$sample"
mkdir -p "$sample"
cp "$root/go.sum" "$sample/go.sum"
cp "$root/lintplugin/.golangci.example.yml" "$sample/.golangci.yml"
cat >"$sample/go.mod" <<MOD
module example.com/sample

go 1.26.0

require github.com/sentinelgen/sentinelgen v0.0.0

replace github.com/sentinelgen/sentinelgen => $root
MOD
cat >"$sample/svc.go" <<'GO'
// Package sample is a user's package.
package sample

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource blockHandler=getBlokced fallback=getFallback
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
GO
cd "$sample"
go mod tidy
cp svc.go svc.go.orig
set +e
echo "== custom-gcl run ./..."
"$gcl" run ./...
echo "exit $?"
echo "== custom-gcl run --fast-only ./... (sentinel needs type information, so it does not run)"
"$gcl" run --fast-only ./...
echo "exit $?"
echo "== custom-gcl run --fix ./..."
"$gcl" run --fix ./...
echo "exit $?"
diff -u svc.go.orig svc.go
echo "== custom-gcl run ./... after the fix"
"$gcl" run ./...
echo "exit $?"
