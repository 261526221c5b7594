//! Settings given as flags, the way pnpm 12 accepts them (docs/settings.md
//! §1.1): `--config.<key>[=<value>]` for any setting, and for the settings
//! pnpm 12.21 also takes as flags of their own ([`SETTING_FLAGS`]),
//! `--<key>` (a boolean), `--no-<key>`, `--<key>=<value>` and
//! `--<key> <value>`. Anything else is left for clap, so a mistyped flag,
//! or one pnpm refuses too, fails with clap's suggestion.

use std::collections::HashSet;

/// Settings pacquet reads that pnpm 12.21's `install` accepts as flags
/// without listing them in its help (probed one by one; it refuses, for
/// example, `--extend-node-path`, `--prefer-symlinked-executables`,
/// `--virtual-store-dir-max-length`, `--dedupe-peers`).
const SETTING_FLAGS: &[&str] = &[
    "changed-files-ignore-pattern",
    "child-concurrency",
    "engine-strict",
    "fail-if-no-match",
    "fetch-timeout",
    "hoist",
    "hoist-pattern",
    "http-proxy",
    "ignore-pnpmfile",
    "include-workspace-root",
    "https-proxy",
    "modules-dir",
    "network-concurrency",
    "no-proxy",
    "node-linker",
    "package-import-method",
    "public-hoist-pattern",
    "shamefully-hoist",
    "side-effects-cache",
    "state-dir",
    "strict-peer-dependencies",
    "test-pattern",
    "trust-lockfile",
    "trust-policy",
    "verify-store-integrity",
    "virtual-store-dir",
];

/// The settings-as-flags part of `pacquet install --help`: they are taken
/// out before clap parses, so clap cannot list them itself.
pub fn help() -> String {
    let mut text = String::from(
        "Settings as flags (as pnpm 12 takes them):\n  --config.<key>=<value>  any setting pacquet reads (pnpm-workspace.yaml keys, kebab-case or camelCase)\n  --<setting>, --no-<setting>, --<setting>=<value>, --<setting> <value>, for:\n",
    );
    let mut line = String::from("   ");
    for name in SETTING_FLAGS {
        if line.len() + name.len() + 3 > 80 {
            text.push_str(&line);
            text.push('\n');
            line = String::from("   ");
        }
        line.push_str(" --");
        line.push_str(name);
    }
    text.push_str(&line);
    text.push_str("\nAny other flag pnpm takes is refused, not ignored.");
    text
}

/// Whether `name` is one of [`SETTING_FLAGS`] pacquet reads: `Some(false)`
/// for a boolean, `Some(true)` when it takes a value.
fn flag_takes_value(name: &str) -> Option<bool> {
    SETTING_FLAGS
        .contains(&name)
        .then(|| pacquet_config::flag_takes_value(name))
        .flatten()
}

/// The command line with the settings taken out.
#[derive(Debug, Default)]
pub struct Split {
    /// `(kebab key, value)` in command line order.
    pub pairs: Vec<(String, String)>,
    /// The arguments for clap.
    pub rest: Vec<String>,
    /// `--node-linker` was given as a flag of its own.
    pub node_linker_flag: bool,
}

/// Takes the settings out of `args`.
pub fn split(args: Vec<String>, claimed: &HashSet<String>) -> Split {
    let mut out = Split::default();
    let (pairs, rest) = (&mut out.pairs, &mut out.rest);
    let mut args = args.into_iter().peekable();
    while let Some(arg) = args.next() {
        if arg == "--" {
            rest.push(arg);
            rest.extend(args.by_ref());
            break;
        }
        if let Some(pair) = arg.strip_prefix("--config.") {
            pairs.push(match pair.split_once('=') {
                Some((key, value)) => (key.to_owned(), value.to_owned()),
                None => (pair.to_owned(), "true".to_owned()),
            });
            continue;
        }
        let Some(flag) = arg.strip_prefix("--") else {
            rest.push(arg);
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (flag, None),
        };
        if claimed.contains(name) {
            rest.push(arg);
            continue;
        }
        if let Some(negated) = name.strip_prefix("no-")
            && inline.is_none()
            && flag_takes_value(negated) == Some(false)
        {
            pairs.push((negated.to_owned(), "false".to_owned()));
            continue;
        }
        let value = match (flag_takes_value(name), inline) {
            (None, _) => {
                rest.push(arg);
                continue;
            }
            (Some(_), Some(value)) => value,
            (Some(true), None) => match args.next_if(|next| !next.starts_with('-')) {
                Some(value) => value,
                None => {
                    // No value: clap reports the unknown flag.
                    rest.push(arg);
                    continue;
                }
            },
            (Some(false), None) => args
                .next_if(|next| next == "true" || next == "false")
                .unwrap_or_else(|| "true".to_owned()),
        };
        out.node_linker_flag |= name == "node-linker";
        pairs.push((name.to_owned(), value));
    }
    out
}

#[cfg(test)]
mod tests;
