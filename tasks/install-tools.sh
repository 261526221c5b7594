#!/usr/bin/env bash
# Installs the tools the tests need into <repo>/.tools/, idempotently.
#
#   pnpm 12.21.0  -> .tools/pnpm/node_modules/.bin/pnpm   (the compatibility oracle)
#
# Tests find pnpm through $PACQUET_PNPM, falling back to the path above.
# Re-running this script does nothing when the right version is present.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.21.0
PNPM_PREFIX="$PWD/.tools/pnpm"
PNPM_BIN="$PNPM_PREFIX/node_modules/.bin/pnpm"

installed_version() {
  [ -x "$PNPM_BIN" ] || return 0
  "$PNPM_BIN" --version 2>/dev/null || true
}

current="$(installed_version)"
if [ "$current" = "$PNPM_VERSION" ]; then
  echo "install-tools: pnpm $PNPM_VERSION already in $PNPM_PREFIX (nothing to do)"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install-tools: npm is required to install pnpm $PNPM_VERSION" >&2
  exit 1
fi

if [ -n "$current" ]; then
  echo "install-tools: replacing pnpm $current in $PNPM_PREFIX with $PNPM_VERSION"
else
  echo "install-tools: installing pnpm $PNPM_VERSION into $PNPM_PREFIX"
fi
mkdir -p "$PNPM_PREFIX"
npm install --prefix "$PNPM_PREFIX" --no-audit --no-fund --no-save \
  --loglevel=error "pnpm@$PNPM_VERSION"

got="$(installed_version)"
if [ "$got" != "$PNPM_VERSION" ]; then
  echo "install-tools: expected pnpm $PNPM_VERSION at $PNPM_BIN, found '${got:-nothing}'" >&2
  exit 1
fi
echo "install-tools: pnpm $got ready at $PNPM_BIN"
