#!/usr/bin/env bash
# Installs a benchmark fixture (default: alotta) with pnpm 12 and with
# pacquet from a loopback mirror of its tarballs, each into its own store,
# and compares the trees (tasks the test suite cannot carry: the tarballs
# come from the npm registry once, verified against the lockfile, then are
# served on 127.0.0.1). Then runs pnpm 12 offline over pacquet's install and
# checks it changes nothing.
#
#   bash tasks/compat-fixture.sh [alotta|small|DIR] [isolated|hoisted]
#
# `hoisted` adds `nodeLinker: hoisted` to both copies of the project.
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
isolated | hoisted) ;;
*) echo "compat: unknown node linker '$linker' (isolated or hoisted)" >&2; exit 1 ;;
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
}
run() { # tool, command...
    local dir=$work/$1
    shift
    (cd "$dir/project" && env HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" \
        XDG_CONFIG_HOME="$dir/home/config" XDG_CACHE_HOME="$dir/home/cache" \
        XDG_STATE_HOME="$dir/home/state" PNPM_HOME="$dir/home/pnpm" CI=true "$@")
}

setup pnpm
setup pacquet
echo pnpm >"$work/step"
if ! run pnpm "$pnpm" install --frozen-lockfile "${extra[@]}" --store-dir "$work/pnpm/store" \
    --reporter=append-only >"$work/pnpm.log" 2>&1; then
    # The oracle refuses the project: pacquet should refuse it too, with the
    # same error code (the caller compares <work>/pnpm.log and pacquet.log).
    rc=0
    run pacquet "$pacquet" install --frozen-lockfile "${extra[@]}" --store-dir "$work/pacquet/store" \
        >"$work/pacquet.log" 2>&1 || rc=$?
    echo "$rc" >"$work/pacquet.rc"
    echo "compat: pnpm 12 failed: $(grep -m1 -o 'ERR_PNPM_[A-Z0-9_]*' "$work/pnpm.log" || echo '?');" \
        "pacquet exited $rc: $(grep -m1 -o 'ERR_P[A-Z0-9_]*' "$work/pacquet.log" || echo '-')"
    exit 1
fi
echo pacquet >"$work/step"
run pacquet "$pacquet" install --frozen-lockfile "${extra[@]}" --store-dir "$work/pacquet/store" \
    >"$work/pacquet.log" 2>&1
echo diff >"$work/step"
echo "compat: pnpm 12 and pacquet installed $(basename "$src") ($linker); comparing"
target/debug/pacquet-tree-diff "$work/pnpm/project" "$work/pnpm/store/v11" \
    "$work/pacquet/project" "$work/pacquet/store/v11"

# pnpm 12 over pacquet's install, offline, with pacquet's store: nothing to do.
echo pnpm-after >"$work/step"
run pacquet "$pnpm" install --frozen-lockfile --offline "${extra[@]}" --store-dir "$work/pacquet/store" \
    --reporter=append-only >"$work/pnpm-after-pacquet.log" 2>&1
cat "$work/pnpm-after-pacquet.log"
target/debug/pacquet-tree-diff "$work/pnpm/project" "$work/pnpm/store/v11" \
    "$work/pacquet/project" "$work/pacquet/store/v11"
echo ok >"$work/step"
echo "compat: pnpm 12 after pacquet changed nothing ($linker)"
