#!/usr/bin/env bash
# Installs the browsers the e2e suite (npm run test:e2e) drives: Debian's chromium and
# firefox-esr. Idempotent: apt-get runs only when one of them is missing, and then installs
# only what is missing. Prints the versions found. Needs root (or sudo) only to install.
#
# Playwright's and Puppeteer's own browser downloads are not used: the suite runs the
# distribution's builds through playwright-core and puppeteer-core.
set -euo pipefail

CHROMIUM_BIN=/usr/bin/chromium
FIREFOX_BIN=/usr/bin/firefox-esr

missing=()
[ -x "$CHROMIUM_BIN" ] || missing+=(chromium)
[ -x "$FIREFOX_BIN" ] || missing+=(firefox-esr)
# Not a browser: Info-ZIP's unzip, with which the package tests read the release zips back.
command -v unzip >/dev/null 2>&1 || missing+=(unzip)

if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "browsers.sh: missing ${missing[*]} and no apt-get here; install Debian's chromium and firefox-esr by hand" >&2
    exit 1
  fi
  as_root=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "browsers.sh: missing ${missing[*]}; installing needs root (or sudo)" >&2
      exit 1
    fi
    as_root=sudo
  fi
  echo "browsers.sh: installing ${missing[*]}" >&2
  $as_root apt-get update
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

for bin in "$CHROMIUM_BIN" "$FIREFOX_BIN"; do
  if [ ! -x "$bin" ]; then
    echo "browsers.sh: $bin is still missing after the install" >&2
    exit 1
  fi
done

# Debian's chromium wrapper prints a harmless shell warning on some machines; the binary
# behind it answers --version directly.
if [ -x /usr/lib/chromium/chromium ]; then
  /usr/lib/chromium/chromium --version
else
  "$CHROMIUM_BIN" --version 2>/dev/null
fi
"$FIREFOX_BIN" --version
