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

# Install a benchmark fixture (alotta, small or a directory) with pnpm 12 and
# pacquet from a loopback mirror and compare the trees; then check that pnpm
# offline over pacquet's tree changes nothing. LINKER: isolated or hoisted.
compat FIXTURE="alotta" LINKER="isolated":
    bash tasks/compat-fixture.sh {{FIXTURE}} {{LINKER}}

# `just compat` over every project in benchmarks/compat-projects, in both
# layouts (or only LINKERS).
compat-all LINKERS="isolated hoisted":
    for l in {{LINKERS}}; do for p in benchmarks/compat-projects/*/; do bash tasks/compat-fixture.sh "$p" "$l" || exit 1; done; done

# Resolve a project's package.json (no lockfile) with pnpm 12 and pacquet
# against one loopback snapshot of the npm registry, then compare the
# lockfiles and the trees. `compat-resolve-all` does every compat project.
compat-resolve DIR:
    bash tasks/compat-resolve.sh {{DIR}}

compat-resolve-all:
    for p in benchmarks/compat-projects/*/; do bash tasks/compat-resolve.sh "$p" || true; done

# Install every real workspace of benchmarks/compat-real (or the ones named)
# with pnpm 12 and pacquet and compare: one result line per project.
compat-real *ARGS:
    bash tasks/compat-real.sh {{ARGS}}

# Replay a finished node_modules tree with only mkdir/link/symlink (the warm floor).
link-floor *ARGS:
    cargo run -q --release -p link-floor -- {{ARGS}}

# Coverage-guided fuzzing (nightly + cargo-fuzz, installed on first use) of
# the lockfile parser, the index row decoder and tarball extraction, each for
# SECONDS (default 180). New inputs go to fuzz/target/corpus; crashes to
# fuzz/artifacts/<target>/. The stable smoke run is `cargo test -p pacquet-fuzz-harness`.
fuzz SECONDS="180" *TARGETS="lockfile store_index tarball":
    rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
    cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
    cd fuzz && for t in {{TARGETS}}; do \
        mkdir -p target/corpus/$t && \
        cargo +nightly fuzz run $t target/corpus/$t corpus/$t -- \
            -max_total_time={{SECONDS}} -max_len=262144 -rss_limit_mb=2048 -timeout=20 || exit 1; \
    done
