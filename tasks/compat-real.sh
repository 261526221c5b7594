#!/usr/bin/env bash
# Installs each project of benchmarks/compat-real (or the ones named) with
# pnpm 12 and with pacquet, from a loopback mirror of its tarballs
# (tasks/compat-fixture.sh, with --ignore-scripts: real projects' own
# scripts want git hooks, browsers and the network), and prints one line
# per project:
#
#   ok                  identical trees and state files, and again after
#                       pnpm 12 ran offline over each tree
#   differences         the tree diff (log kept under benchmarks/work)
#   pacquet failed      pnpm 12 installed it, pacquet did not (its error)
#   both refuse         pnpm 12 and pacquet fail with the same error code
#   pnpm 12 failed      the oracle fails and pacquet does not fail the same way
#   unavailable         tarballs the registry here does not serve
#
#   bash tasks/compat-real.sh [--hoisted|--global] [name...]
#
# The summary also goes to benchmarks/work/compat-real-<linker>.md. Exits 1
# when any project has differences or pacquet failed where pnpm 12 did not.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
linker=isolated
case "${1:-}" in
--hoisted) linker=hoisted; shift ;;
--global) linker=global; shift ;;
esac
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for dir in benchmarks/compat-real/*/; do names+=("$(basename "$dir")"); done
fi

summary=$repo/benchmarks/work/compat-real-$linker.md
mkdir -p "$(dirname "$summary")"
printf '| project | result |\n|---|---|\n' >"$summary"
failed=0

# First line of `file` matching `pattern`, whitespace squeezed.
first() { grep -m1 -E "$2" "$1" 2>/dev/null | tr -s ' \t' ' ' | cut -c1-160; }

for name in "${names[@]}"; do
    src=benchmarks/compat-real/$name
    work=$repo/benchmarks/work/compat-$name-$linker
    log=$repo/benchmarks/work/compat-real-$name-$linker.log
    COMPAT_INSTALL_ARGS=--ignore-scripts bash tasks/compat-fixture.sh "$src" "$linker" >"$log" 2>&1
    step=$(cat "$work/step" 2>/dev/null || echo setup)
    case $step in
    ok) result="ok" ;;
    mirror)
        missing=$(grep -c '404 Not Found' "$work/mirror.log")
        result="unavailable: $missing tarballs not served by the registry here"
        ;;
    pnpm)
        theirs=$(grep -m1 -o 'ERR_PNPM_[A-Z0-9_]*' "$work/pnpm.log")
        ours=$(grep -m1 -o 'ERR_P[A-Z0-9_]*' "$work/pacquet.log")
        if [ "$(cat "$work/pacquet.rc" 2>/dev/null)" != 0 ] && [ -n "$theirs" ] && [ "$theirs" = "$ours" ]; then
            result="both refuse: $theirs ($(first "$work/pnpm.log" "$theirs"))"
        else
            result="pnpm 12 failed: $(first "$work/pnpm.log" 'ERR_PNPM|ERROR|Error'); pacquet: ${ours:-exit $(cat "$work/pacquet.rc" 2>/dev/null)}"
            failed=1
        fi
        ;;
    pacquet)
        result="pacquet failed: $(first "$work/pacquet.log" 'ERR_|error|Error')"
        failed=1
        ;;
    diff | pnpm-after)
        result="differences ($step): $(first "$log" 'difference')"
        failed=1
        ;;
    *)
        result="harness failed at $step: see $log"
        failed=1
        ;;
    esac
    printf '%-12s %s\n' "$name" "$result"
    printf '| %s | %s |\n' "$name" "${result//|/\\|}" >>"$summary"
done
echo "summary: $summary"
exit $failed
