#!/usr/bin/env bash
# Builds pacquet (release) and installs the bundled demo project
# (benchmarks/fixtures/small: 15 direct dependencies, ~100 packages) from the
# npm registry into target/demo/, with its own store under target/demo-store/
# (kept between runs, so a second run downloads nothing).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked -p pacquet-cli
demo=target/demo
rm -rf "$demo"
mkdir -p "$demo"
cp benchmarks/fixtures/small/package.json benchmarks/fixtures/small/pnpm-lock.yaml \
  benchmarks/fixtures/small/pnpm-workspace.yaml "$demo/"
# The store path is absolute: a relative one is taken from the project dir.
./target/release/pacquet install --frozen-lockfile -C "$demo" --store-dir "$PWD/target/demo-store"
echo
echo "Installed into $demo/node_modules:"
ls "$demo/node_modules"
"$demo/node_modules/.bin/semver" 1.2.3 -i minor
