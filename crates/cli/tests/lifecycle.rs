//! Lifecycle scripts end to end, checked against pnpm 12: dependency builds
//! before the projects' own scripts, in pnpm's order and environment,
//! failures of required and optional packages, the build policy, and the
//! real esbuild with its side-effects cache.

mod support;

mod lifecycle {
    mod env;
    mod esbuild;
    mod failures;
    pub mod helpers;
    mod hoisted;
    mod order;
}
