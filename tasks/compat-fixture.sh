#!/usr/bin/env bash
# Installs a benchmark fixture (default: alotta) with pnpm 12 and with
# pacquet from a loopback mirror of its tarballs, each into its own store,
# and compares the trees (tasks the test suite cannot carry: the tarballs
# come from the npm registry once, verified against the lockfile, then are
# served on 127.0.0.1). Then runs pnpm 12 offline over both installs and
# compares them again.
#
#   bash tasks/compat-fixture.sh [alotta|small|DIR] [isolated|hoisted|global]
#
# `hoisted` adds `nodeLinker: hoisted` to both copies of the project,
# `global` adds `enableGlobalVirtualStore: true` (the slots in each store's
# `links` are compared too).
# COMPAT_INSTALL_ARGS (e.g. --ignore-scripts) is passed to every install.
# The step running (mirror, pnpm, pacquet, diff, pnpm-after, ok) is kept in
# <work>/step, so a caller can tell where a run stopped. When pnpm 12 fails,
# pacquet runs anyway and its exit code goes to <work>/pacquet.rc.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
fixture=${1:-alotta}
linker=${2:-isolated}
case $linker in
isolated | hoisted | global) ;;
*) echo "compat: unknown node linker '$linker' (isolated, hoisted or global)" >&2; exit 1 ;;
esac
src=$fixture
[ -d "$src" ] || src=benchmarks/fixtures/$fixture
work=$repo/benchmarks/work/compat-$(basename "$src")-$linker
mirror=${BENCH_MIRROR:-$repo/benchmarks/work/mirror}

bash tasks/install-tools.sh >/dev/null
pnpm=$repo/.tools/pnpm/node_modules/.bin/pnpm
cargo build -q --release -p pacquet-cli
cargo build -q -p pacquet-testing --bins
cargo build -q --release -p registry-mirror
pacquet=$repo/target/release/pacquet
read -r -a extra <<<"${COMPAT_INSTALL_ARGS:-}"

rm -rf "$work"
mkdir -p "$work"
echo mirror >"$work/step"
target/release/registry-mirror --out "$mirror" "$src/pnpm-lock.yaml" 2>&1 | tee "$work/mirror.log"
fifo=$work/registry.stdin
mkfifo "$fifo"
# The registry serves until its stdin closes.
target/debug/pacquet-test-registry serve --mirror "$mirror" <"$fifo" >"$work/registry.url" &
exec 3>"$fifo"
trap 'exec 3>&-' EXIT
for _ in $(seq 50); do [ -s "$work/registry.url" ] && break; sleep 0.1; done
registry=$(head -1 "$work/registry.url")

setup() { # tool -> project dir on stdout
    local dir=$work/$1
    mkdir -p "$dir/home" "$dir/project"
    cp -r "$src/." "$dir/project/"
    rm -rf "$dir/project/node_modules"
    printf 'registry=%s\n' "$registry" >"$dir/project/.npmrc"
    # The mirror has tarballs, not the metadata pnpm's lockfile policy check
    # reads; the lockfile is trusted as the test suite's fixtures are.
    printf '\ntrustLockfile: true\n' >>"$dir/project/pnpm-workspace.yaml"
    if [ "$linker" = hoisted ]; then
        printf 'nodeLinker: hoisted\n' >>"$dir/project/pnpm-workspace.yaml"
    fi
    if [ "$linker" = global ]; then
        printf 'enableGlobalVirtualStore: true\n' >>"$dir/project/pnpm-workspace.yaml"
    fi
}
run() { # tool, command...
    local dir=$work/$1
    shift
    (cd "$dir/project" && env HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" \
        XDG_CONFIG_HOME="$dir/home/config" XDG_CACHE_HOME="$dir/home/cache" \
        XDG_STATE_HOME="$dir/home/state" PNPM_HOME="$dir/home/pnpm" CI=true "$@")
}

# With the global virtual store, a slot of a package depending on a
# workspace project (`link:`) is named after the project's absolute path:
# each tool installs in turn at one place, `$work/here`, its directory moved
# there and back.
place() { if [ "$linker" = global ]; then echo here; else echo "$1"; fi; }
# install_as TOOL-DIR BINARY LOG ARGS...: an install in TOOL-DIR's copy.
install_as() {
    local tool=$1 bin=$2 log=$3 at rc=0
    shift 3
    at=$(place "$tool")
    [ "$at" = "$tool" ] || mv "$work/$tool" "$work/$at"
    run "$at" "$bin" install --frozen-lockfile "${extra[@]}" --store-dir "$work/$at/store" "$@" \
        >"$log" 2>&1 || rc=$?
    [ "$at" = "$tool" ] || mv "$work/$at" "$work/$tool"
    return $rc
}

setup pnpm
setup pacquet
echo pnpm >"$work/step"
if ! install_as pnpm "$pnpm" "$work/pnpm.log" --reporter=append-only; then
    # The oracle refuses the project: pacquet should refuse it too, with the
    # same error code (the caller compares <work>/pnpm.log and pacquet.log).
    rc=0
    install_as pacquet "$pacquet" "$work/pacquet.log" || rc=$?
    echo "$rc" >"$work/pacquet.rc"
    echo "compat: pnpm 12 failed: $(grep -m1 -o 'ERR_PNPM_[A-Z0-9_]*' "$work/pnpm.log" || echo '?');" \
        "pacquet exited $rc: $(grep -m1 -o 'ERR_P[A-Z0-9_]*' "$work/pacquet.log" || echo '-')"
    exit 1
fi
echo pacquet >"$work/step"
install_as pacquet "$pacquet" "$work/pacquet.log"
echo diff >"$work/step"
echo "compat: pnpm 12 and pacquet installed $(basename "$src") ($linker); comparing"
target/debug/pacquet-tree-diff "$work/pnpm/project" "$work/pnpm/store/v11" \
    "$work/pacquet/project" "$work/pacquet/store/v11"

# pnpm 12 over pacquet's install, offline, with pacquet's store, does what
# it does over its own: pnpm is not always idempotent (it imports `file:`
# directories again, and with the global virtual store then links commands
# it left out the first time), so both trees go through it once more.
echo pnpm-after >"$work/step"
install_as pnpm "$pnpm" "$work/pnpm-after-pnpm.log" --offline --reporter=append-only
install_as pacquet "$pnpm" "$work/pnpm-after-pacquet.log" --offline --reporter=append-only
cat "$work/pnpm-after-pacquet.log"
target/debug/pacquet-tree-diff "$work/pnpm/project" "$work/pnpm/store/v11" \
    "$work/pacquet/project" "$work/pacquet/store/v11"
echo ok >"$work/step"
echo "compat: pnpm 12 over either install left the same tree ($linker)"
