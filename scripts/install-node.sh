#!/usr/bin/env bash
# Builds the pinned Helicon avalanchego (v1.15.0-fuji, with the libevm commit it pins) into a cache
# outside the clone. Idempotent: when the binary for the pinned version exists, it prints its path
# and does nothing. Beside the binary it keeps the source's local genesis (genesis_local.json), from
# which the test harness makes its Helicon test network. Prints the binary's path as the last line
# of stdout.
#
# Source, in this order:
#   1. $XPC_NODE_SRC, or ../shared/node-src beside the clone: the two source archives, checked
#      against their SHA256SUMS before anything is unpacked (the Go module proxy does not serve
#      v1.15's dependencies, so `go get …@v1.15.0` cannot work);
#   2. otherwise a git clone of the pinned commits of ava-labs/avalanchego and ava-labs/libevm.
set -euo pipefail

NODE_VERSION="v1.15.0-fuji"
AVALANCHEGO_COMMIT="e8f9781ee57de048bbfde5be0fa632e9efdf1448"   # tag v1.15.0-fuji
LIBEVM_COMMIT="5557c68d296b68c7fbc9e0394dafcbc8b71fedb5"        # pinned by that tag's go.mod
AVALANCHEGO_ARCHIVE="avalanchego-v1.15.0-fuji-src.tar.xz"
LIBEVM_ARCHIVE="libevm-5557c68d296b-src.tar.xz"
MIN_GO_MINOR=25   # the node's go.mod asks for go 1.25.x

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC_DIR="${XPC_NODE_SRC:-$REPO_ROOT/../shared/node-src}"
CACHE_ROOT="${XPC_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpc-wallet}"
BUILD_DIR="$CACHE_ROOT/avalanchego-$NODE_VERSION"
BIN="$BUILD_DIR/avalanchego"
GENESIS="$BUILD_DIR/genesis_local.json"
LOG="$BUILD_DIR/build.log"

fail() {
  echo "install-node: $*" >&2
  exit 1
}

if [ -x "$BIN" ] && [ -f "$GENESIS" ]; then
  echo "$BIN"
  exit 0
fi

command -v go >/dev/null 2>&1 || fail "Go is not installed (need Go >= 1.$MIN_GO_MINOR and gcc). Install Go, then run this again."
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
[ "$go_minor" -ge "$MIN_GO_MINOR" ] 2>/dev/null \
  || fail "$(go env GOVERSION) is too old; avalanchego $NODE_VERSION needs Go >= 1.$MIN_GO_MINOR."
command -v gcc >/dev/null 2>&1 || fail "gcc is missing (the node needs cgo). apt-get install gcc"

mkdir -p "$BUILD_DIR"
work="$BUILD_DIR/src"
rm -rf "$work"
mkdir -p "$work"
: >"$LOG"

if [ -f "$SRC_DIR/SHA256SUMS" ]; then
  echo "install-node: source archives from $SRC_DIR" >&2
  for f in "$AVALANCHEGO_ARCHIVE" "$LIBEVM_ARCHIVE"; do
    [ -f "$SRC_DIR/$f" ] || fail "$SRC_DIR has SHA256SUMS but not $f"
    grep -q " $f\$" "$SRC_DIR/SHA256SUMS" || fail "$SRC_DIR/SHA256SUMS lists no checksum for $f"
  done
  ( cd "$SRC_DIR" && grep -E " ($AVALANCHEGO_ARCHIVE|$LIBEVM_ARCHIVE)\$" SHA256SUMS | sha256sum --check --strict --quiet ) \
    || fail "a source archive in $SRC_DIR does not match SHA256SUMS; refusing to build it"
  tar -xJf "$SRC_DIR/$AVALANCHEGO_ARCHIVE" -C "$work"
  tar -xJf "$SRC_DIR/$LIBEVM_ARCHIVE" -C "$work"
else
  # Not exercised on the project's machines (they have the archives); kept for everyone else.
  command -v git >/dev/null 2>&1 || fail "no source archives at $SRC_DIR and git is not installed"
  echo "install-node: no archives at $SRC_DIR; cloning the pinned commits" >&2
  for pair in "avalanchego $AVALANCHEGO_COMMIT" "libevm $LIBEVM_COMMIT"; do
    set -- $pair
    git init -q "$work/$1"
    git -C "$work/$1" fetch -q --depth 1 "https://github.com/ava-labs/$1.git" "$2" >>"$LOG" 2>&1 \
      || fail "could not fetch ava-labs/$1 at $2 (log: $LOG)"
    git -C "$work/$1" checkout -q FETCH_HEAD
  done
fi
[ -f "$work/avalanchego/main/main.go" ] || fail "unpacked source has no avalanchego/main/main.go"
[ -f "$work/libevm/go.mod" ] || fail "unpacked source has no libevm/go.mod"
[ -f "$work/avalanchego/genesis/genesis_local.json" ] || fail "unpacked source has no genesis/genesis_local.json"
cp "$work/avalanchego/genesis/genesis_local.json" "$GENESIS.tmp"
mv "$GENESIS.tmp" "$GENESIS"
if [ -x "$BIN" ]; then
  rm -rf "$work"
  echo "$BIN"
  exit 0
fi

# GOWORK=off: the tree has a go.work, which refuses -mod=mod.
export GOWORK=off GOTOOLCHAIN=local CGO_ENABLED=1 CGO_CFLAGS="-O2 -D__BLST_PORTABLE__" GOFLAGS=-mod=mod
start=$(date +%s)
echo "install-node: building avalanchego $NODE_VERSION (first build ~2-4 min; log: $LOG)" >&2
if ! ( cd "$work/avalanchego" \
      && go mod edit -replace github.com/ava-labs/libevm=../libevm \
      && go build -o "$BIN.tmp" ./main ) >>"$LOG" 2>&1; then
  rm -f "$BIN.tmp"
  echo "install-node: build failed; last lines of $LOG:" >&2
  tail -n 30 "$LOG" >&2
  exit 1
fi
version=$("$BIN.tmp" --version 2>/dev/null || true)
case "$version" in
  avalanchego/1.15.*) ;;
  *) rm -f "$BIN.tmp"; fail "the built binary reports '$version', expected avalanchego/1.15.x" ;;
esac
mv "$BIN.tmp" "$BIN"
rm -rf "$work"
end=$(date +%s)
echo "install-node: built in $((end - start)) s, $(du -h "$BIN" | cut -f1) binary ($version)" >&2
echo "$BIN"
