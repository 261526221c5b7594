#!/usr/bin/env bash
# Resolution against pnpm 12: a project's package.json (no lockfile) is
# resolved and installed by pnpm 12 and by pacquet against the same loopback
# registry snapshot; the lockfiles must be identical and the trees equal.
#
#   bash tasks/compat-resolve.sh DIR
#
# The snapshot: pnpm 12 resolves DIR once against the npm registry
# (`--lockfile-only`, an isolated home), and every package of that lockfile
# gets its registry document and tarball mirrored (verified against the
# lockfile) into benchmarks/work/mirror; the loopback registry serves the
# documents with their tarball URLs pointing at itself.
# The step running (seed, mirror, pnpm, pacquet, diff, ok) is kept in
# <work>/step.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
src=${1:?usage: compat-resolve.sh DIR}
name=$(basename "$src")
work=$repo/benchmarks/work/resolve-$name
mirror=${BENCH_MIRROR:-$repo/benchmarks/work/mirror}

bash tasks/install-tools.sh >/dev/null
pnpm=$repo/.tools/pnpm/node_modules/.bin/pnpm
cargo build -q --release -p pacquet-cli
cargo build -q -p pacquet-testing --bins
cargo build -q --release -p registry-mirror
pacquet=$repo/target/release/pacquet

rm -rf "$work"
mkdir -p "$work"

copy() { # side -> project dir, without lockfile or node_modules
    local dir=$work/$1
    mkdir -p "$dir/home" "$dir/project"
    cp -r "$src/." "$dir/project/"
    rm -rf "$dir/project/node_modules" "$dir/project/pnpm-lock.yaml"
}
run() { # side, command...
    local dir=$work/$1
    shift
    (cd "$dir/project" && env HOME="$dir/home" XDG_DATA_HOME="$dir/home/data" \
        XDG_CONFIG_HOME="$dir/home/config" XDG_CACHE_HOME="$dir/home/cache" \
        XDG_STATE_HOME="$dir/home/state" PNPM_HOME="$dir/home/pnpm" CI=true "$@")
}

echo seed >"$work/step"
copy seed
run seed "$pnpm" install --lockfile-only --no-frozen-lockfile --reporter=append-only \
    >"$work/seed.log" 2>&1
echo mirror >"$work/step"
target/release/registry-mirror --packuments --out "$mirror" "$work/seed/project/pnpm-lock.yaml" \
    >"$work/mirror.log" 2>&1
fifo=$work/registry.stdin
mkfifo "$fifo"
target/debug/pacquet-test-registry serve --mirror "$mirror" <"$fifo" >"$work/registry.url" &
exec 3>"$fifo"
trap 'exec 3>&-' EXIT
for _ in $(seq 50); do [ -s "$work/registry.url" ] && break; sleep 0.1; done
registry=$(head -1 "$work/registry.url")

for side in pnpm pacquet; do
    copy "$side"
    printf 'registry=%s\n' "$registry" >"$work/$side/project/.npmrc"
done
echo pnpm >"$work/step"
run pnpm "$pnpm" install --no-frozen-lockfile --store-dir "$work/pnpm/store" \
    --reporter=append-only >"$work/pnpm.log" 2>&1
echo pacquet >"$work/step"
run pacquet "$pacquet" install --store-dir "$work/pacquet/store" >"$work/pacquet.log" 2>&1 || {
    echo "compat-resolve: $name: pacquet failed: $(grep -m1 -o 'ERR_P[A-Z0-9_]*' "$work/pacquet.log" || tail -3 "$work/pacquet.log")"
    exit 1
}
echo diff >"$work/step"
if ! diff -u "$work/pnpm/project/pnpm-lock.yaml" "$work/pacquet/project/pnpm-lock.yaml" \
    >"$work/lockfile.diff"; then
    echo "compat-resolve: $name: lockfiles differ ($(grep -c '^[-+][^-+]' "$work/lockfile.diff") lines; $work/lockfile.diff)"
    exit 1
fi
target/debug/pacquet-tree-diff "$work/pnpm/project" "$work/pnpm/store/v11" \
    "$work/pacquet/project" "$work/pacquet/store/v11"
echo ok >"$work/step"
echo "compat-resolve: $name: same lockfile and tree as pnpm 12"
