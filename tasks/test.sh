#!/usr/bin/env bash
# The whole test suite, from a clean clone on a machine with Rust and Node.js.
# Installs the tools the tests need (pnpm 12, the compatibility oracle) into
# .tools/, then runs every crate's tests. Tests start their own loopback
# registry; nothing here talks to the public registry except the one-time
# tool install.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tasks/install-tools.sh
export PACQUET_PNPM="$PWD/.tools/pnpm/node_modules/.bin/pnpm"
export PACQUET_TEST_REFLINK_DIR="$PWD/.tools/reflink"
cargo test --workspace --locked
