# Developer recipes. The README's two commands do not need `just`.

# Run the whole test suite (installs pnpm 12 into .tools/ first).
test:
    bash tasks/test.sh

# Build pacquet and install the bundled demo project.
demo:
    bash tasks/demo.sh

# Format, lint.
lint:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings

fmt:
    cargo fmt --all

# What CI runs.
ci:
    bash .ci/run

# Benchmark installs with hyperfine: pacquet vs pnpm 12 vs bun vs the filesystem
# floor (default: warm store, alotta fixture). `just bench --help` for options.
bench *ARGS:
    command -v hyperfine >/dev/null || (apt-get update && apt-get install -y hyperfine)
    cargo run -q -p integrated-benchmark -- {{ARGS}}

# Replay a finished node_modules tree with only mkdir/link/symlink (the warm floor).
link-floor *ARGS:
    cargo run -q --release -p link-floor -- {{ARGS}}
