#!/usr/bin/env bash
# Rewrites crates/sources/tests/packlist/<case>.expected.json from what
# `npm pack --dry-run --json` lists for each case (the oracle for pacquet's
# packlist, docs/packlist.md). Each case is a JSON file mapping paths to
# contents; it is written into a temp dir and packed there.
#
#   bash tasks/regenerate-packlist-expectations.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cases=crates/sources/tests/packlist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for case in "$cases"/*.json; do
    case "$case" in *.expected.json) continue ;; esac
    name=$(basename "$case" .json)
    dir=$work/$name
    node -e '
        const fs = require("fs"), path = require("path");
        const [casePath, dir] = process.argv.slice(1);
        const { files } = JSON.parse(fs.readFileSync(casePath, "utf8"));
        for (const [rel, body] of Object.entries(files)) {
            fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
            fs.writeFileSync(path.join(dir, rel), body);
        }' "$case" "$dir"
    (cd "$dir" && npm pack --dry-run --json --ignore-scripts 2>/dev/null) |
        node -e '
            const fs = require("fs");
            const out = JSON.parse(fs.readFileSync(0, "utf8"));
            const paths = out[0].files.map((f) => f.path).sort();
            fs.writeFileSync(process.argv[1], JSON.stringify(paths, null, 2) + "\n");' \
            "$cases/$name.expected.json"
    echo "packlist: $name"
done
echo "npm $(npm --version)" >"$cases/NPM_VERSION"
