#!/bin/sh
# Fetches go.etcd.io/etcd/server/v3 through the Go module proxy into a
# directory of its own (default /tmp/genspeed-etcd/server), without the
# replace directives that point into etcd's own repository, and lists it once
# so that the build cache is warm. Then, from the repository:
#
#	go run ./scripts/genspeed -annotate /tmp/genspeed-etcd/server [-baseline old-sentinelgen]
#
# measures the synthetic module and a copy of this one with directives added
# to its error-returning functions and methods (679 on v3.5.17, in 34 of its
# 51 packages), in one run. The copy made here carries no directives: with
# -module instead of -annotate, sentinelgen loads and checks its packages and
# finds nothing to generate.
set -eu
version=${ETCD_VERSION:-v3.5.17}
dest=${1:-/tmp/genspeed-etcd}
mkdir -p "$dest"
cd "$dest"
src=$(go mod download -json "go.etcd.io/etcd/server/v3@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$src" ] || { echo "etcd.sh: go mod download gave no directory" >&2; exit 1; }
rm -rf server
cp -r "$src" server
chmod -R u+w server
cd server
# Drop the replace blocks (../api, ./FORBIDDEN_DEPENDENCY): the required
# versions come from the proxy instead.
awk '/^replace \($/ {skip=1; next} skip && /^\)$/ {skip=0; next} !skip && !/^replace / {print}' go.mod > go.mod.new
mv go.mod.new go.mod
GOFLAGS=-mod=mod go list -export -deps ./... > /dev/null
echo "$dest/server"
