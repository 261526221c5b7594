#!/usr/bin/env bash
# Installs the tools the tests need into <repo>/.tools/, idempotently.
#
#   pnpm 12.21.0  -> .tools/pnpm/node_modules/.bin/pnpm   (the compatibility oracle)
#   esbuild tarballs -> .tools/mirror/<name>/-/<file>.tgz  (served by the
#                       lifecycle tests with Registry::start_mirror)
#   verdaccio 5.33.0 -> .tools/verdaccio      (the private-registry e2e test)
#   an XFS image with reflinks -> mounted at .tools/reflink (the clone import
#                       test runs there; tasks/test.sh exports it as
#                       PACQUET_TEST_REFLINK_DIR). Needs root or sudo.
#
# Tests find pnpm through $PACQUET_PNPM, falling back to the path above.
# Re-running this script does nothing when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tarballs of crates/cli/tests/fixtures/esbuild/pnpm-lock.yaml that a
# linux-x64 install downloads, each checked against the lockfile integrity.
MIRROR="$PWD/.tools/mirror"
MIRROR_LOCKFILE=crates/cli/tests/fixtures/esbuild/pnpm-lock.yaml
MIRROR_PACKAGES=("esbuild@0.23.1" "@esbuild/linux-x64@0.23.1")

# Prints the `resolution.integrity` of lockfile key $1.
lockfile_integrity() {
  awk -v key="$1" '
    { line = $0; gsub(/\x27/, "", line) }
    line == "  " key ":" { found = 1; next }
    found && /integrity:/ { sub(/.*integrity: /, ""); sub(/[,}].*/, ""); print; exit }
  ' "$MIRROR_LOCKFILE"
}

# sha512-<base64> of file $1.
file_integrity() {
  node -e 'const c=require("crypto"),f=require("fs");console.log("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$1"
}

fill_mirror() {
  local registry="${NPM_REGISTRY:-https://registry.npmjs.org}"
  for spec in "${MIRROR_PACKAGES[@]}"; do
    local name="${spec%@*}" version="${spec##*@}"
    local file="${name##*/}-$version.tgz"
    local dest="$MIRROR/$name/-/$file"
    local want
    want="$(lockfile_integrity "$spec")"
    if [ -z "$want" ]; then
      echo "install-tools: no integrity for $spec in $MIRROR_LOCKFILE" >&2
      exit 1
    fi
    if [ -f "$dest" ] && [ "$(file_integrity "$dest")" = "$want" ]; then
      continue
    fi
    echo "install-tools: downloading $spec into $MIRROR"
    mkdir -p "$(dirname "$dest")"
    curl -fsSL --retry 3 -o "$dest.part" "$registry/$name/-/$file"
    local got
    got="$(file_integrity "$dest.part")"
    if [ "$got" != "$want" ]; then
      rm -f "$dest.part"
      echo "install-tools: $spec integrity $got, lockfile says $want" >&2
      exit 1
    fi
    mv "$dest.part" "$dest"
  done
  echo "install-tools: esbuild mirror ready at $MIRROR"
}
fill_mirror

# Mounts a loop XFS image with reflink=1 at .tools/reflink, writable by the
# current user: the root filesystem of CI (ext4) cannot clone files.
mount_reflink_fs() {
  local dir="$PWD/.tools/reflink" img="$PWD/.tools/reflink.img"
  if mountpoint -q "$dir"; then
    echo "install-tools: reflink filesystem already mounted at $dir"
    return
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "install-tools: mounting $dir needs root or sudo" >&2
      exit 1
    fi
    sudo="sudo"
  fi
  if ! command -v mkfs.xfs >/dev/null 2>&1; then
    echo "install-tools: installing xfsprogs for mkfs.xfs"
    $sudo apt-get install -y -qq xfsprogs >/dev/null ||
      { $sudo apt-get update -qq && $sudo apt-get install -y -qq xfsprogs >/dev/null; }
  fi
  mkdir -p "$dir"
  if [ ! -f "$img" ]; then
    # Sparse: only the metadata mkfs writes takes disk space.
    truncate -s 512M "$img.part"
    mkfs.xfs -q -m reflink=1 "$img.part"
    mv "$img.part" "$img"
  fi
  $sudo mount -o loop "$img" "$dir"
  $sudo chown "$(id -u):$(id -g)" "$dir"
  echo "install-tools: reflink filesystem mounted at $dir"
}
mount_reflink_fs

# Verdaccio, the private registry teams run, for the end-to-end test of an
# authenticated scoped registry (crates/cli/tests/verdaccio.rs). 5.x: 6.x
# needs Node.js 22.
VERDACCIO_VERSION=5.33.0
install_verdaccio() {
  local prefix="$PWD/.tools/verdaccio"
  local manifest="$prefix/node_modules/verdaccio/package.json"
  if [ -f "$manifest" ] &&
    [ "$(node -p "require(process.argv[1]).version" "$manifest")" = "$VERDACCIO_VERSION" ]; then
    echo "install-tools: verdaccio $VERDACCIO_VERSION already in $prefix"
    return
  fi
  echo "install-tools: installing verdaccio $VERDACCIO_VERSION into $prefix"
  mkdir -p "$prefix"
  # Verdaccio asks for `node-fetch@cjs`, a dist-tag; registries that serve
  # only `latest` cannot resolve it, so it is pinned.
  printf '{"private":true,"overrides":{"node-fetch":"2.7.0"}}\n' >"$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --no-save \
    --loglevel=error "verdaccio@$VERDACCIO_VERSION"
}
install_verdaccio

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
