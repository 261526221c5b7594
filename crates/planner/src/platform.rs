//! Installability of a package on the target platforms (npm's `os`/`cpu`/
//! `libc` semantics, checked against `supportedArchitectures`).

mod infer;

pub(crate) use infer::infer_platform;

/// One host's platform, as Node reports it (`linux`, `x64`, `glibc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPlatform {
    pub os: String,
    pub cpu: String,
    /// `glibc`, `musl`, or `None` off Linux.
    pub libc: Option<String>,
}

pub use pacquet_config::SupportedArchitectures;

/// The values a package's platform fields are checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformTargets {
    os: Vec<String>,
    cpu: Vec<String>,
    libc: Vec<String>,
}

impl PlatformTargets {
    /// Expands `supported` against `host` (`current` → host value).
    pub fn new(host: &HostPlatform, supported: &SupportedArchitectures) -> Self {
        fn expand(list: &[String], host: Option<&str>) -> Vec<String> {
            list.iter()
                .filter_map(|v| match v.as_str() {
                    "current" => host.map(str::to_owned),
                    v => Some(v.to_owned()),
                })
                .collect()
        }
        PlatformTargets {
            os: expand(&supported.os, Some(&host.os)),
            cpu: expand(&supported.cpu, Some(&host.cpu)),
            libc: expand(&supported.libc, host.libc.as_deref()),
        }
    }

    /// Whether a package with these (optional) fields may be installed.
    pub fn is_installable(
        &self,
        os: Option<&[String]>,
        cpu: Option<&[String]>,
        libc: Option<&[String]>,
    ) -> bool {
        let ok = |wanted: Option<&[String]>, values: &[String]| match wanted {
            None => true,
            Some(wanted) => values.is_empty() || check_list(values, wanted),
        };
        ok(os, &self.os) && ok(cpu, &self.cpu) && ok(libc, &self.libc)
    }
}

/// npm's `checkList`: a `!value` entry that names any target fails the
/// check; otherwise a positive entry must name a target, unless every entry
/// is a negation. `["any"]` matches everything.
fn check_list(values: &[String], wanted: &[String]) -> bool {
    if wanted.is_empty() || (wanted.len() == 1 && wanted[0] == "any") {
        return true;
    }
    let mut matched = false;
    let mut negations = 0;
    for entry in wanted {
        match entry.strip_prefix('!') {
            Some(negated) => {
                if values.iter().any(|v| v == negated) {
                    return false;
                }
                negations += 1;
            }
            None => matched |= values.iter().any(|v| v == entry),
        }
    }
    matched || negations == wanted.len()
}

#[cfg(test)]
mod tests;
