#!/usr/bin/env bash
# Builds the pinned avalanchego from the Go module proxy into a cache outside the clone.
# Idempotent: when the binary for the pinned version exists, it prints its path and does nothing.
# Prints the binary's path as the last line of stdout.
set -euo pipefail

NODE_VERSION="v1.14.2"
MIN_GO_MINOR=25   # the node's go.mod asks for go 1.25.x
CACHE_ROOT="${XPC_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpc-wallet}"
BUILD_DIR="$CACHE_ROOT/avalanchego-$NODE_VERSION"
BIN="$BUILD_DIR/avalanchego"
LOG="$BUILD_DIR/build.log"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "install-node: Go is not installed (need Go >= 1.$MIN_GO_MINOR and gcc). Install Go, then run this again." >&2
  exit 1
fi
go_minor=$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')
if ! [ "$go_minor" -ge "$MIN_GO_MINOR" ] 2>/dev/null; then
  echo "install-node: $(go env GOVERSION) is too old; avalanchego $NODE_VERSION needs Go >= 1.$MIN_GO_MINOR." >&2
  exit 1
fi
if ! command -v gcc >/dev/null 2>&1; then
  echo "install-node: gcc is missing (the node needs cgo). apt-get install gcc" >&2
  exit 1
fi

mkdir -p "$BUILD_DIR"
wrapper="$BUILD_DIR/wrapper"
rm -rf "$wrapper"
mkdir -p "$wrapper"
# The node's go.mod has local replace directives, so `go install …@version` is refused; a wrapper
# module that requires it is the supported route. The genproto replace mirrors the node's own.
cat > "$wrapper/go.mod" <<MOD
module xpcwallet.local/nodebuild

go 1.25.8

replace google.golang.org/genproto => google.golang.org/genproto v0.0.0-20240903143218-8af14fe29dc1
MOD

export GOTOOLCHAIN=local CGO_ENABLED=1 CGO_CFLAGS="-O2 -D__BLST_PORTABLE__" GOFLAGS=-mod=mod
start=$(date +%s)
echo "install-node: building avalanchego $NODE_VERSION (first build takes ~10 min; log: $LOG)" >&2
if ! ( cd "$wrapper" \
      && go get "github.com/ava-labs/avalanchego/main@$NODE_VERSION" \
      && go build -o "$BIN.tmp" github.com/ava-labs/avalanchego/main ) >"$LOG" 2>&1; then
  rm -f "$BIN.tmp"
  echo "install-node: build failed; last lines of $LOG:" >&2
  tail -n 30 "$LOG" >&2
  exit 1
fi
mv "$BIN.tmp" "$BIN"
end=$(date +%s)
echo "install-node: built in $((end - start)) s, $(du -h "$BIN" | cut -f1) binary" >&2
echo "$BIN"
