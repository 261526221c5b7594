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
