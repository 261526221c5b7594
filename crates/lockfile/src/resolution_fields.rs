//! A resolution as the object pnpm writes: the one walk over its kinds that
//! the lockfile writer and the side-effects cache key both read.

use crate::Resolution;

/// One value of a resolution object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ResolutionValue<'a> {
    Str(&'a str),
    Bool(bool),
    /// A field of a resolution kind pacquet does not model, verbatim.
    Json(&'a serde_json::Value),
}

impl Resolution {
    /// The fields pnpm writes for this resolution, unordered (both
    /// consumers sort the keys).
    pub fn fields(&self) -> Vec<(&str, ResolutionValue<'_>)> {
        use ResolutionValue::{Bool, Json, Str};
        let mut fields = Vec::with_capacity(4);
        match self {
            Resolution::Registry { integrity } => fields.push(("integrity", Str(integrity))),
            Resolution::Tarball {
                tarball,
                integrity,
                git_hosted,
                path,
            } => {
                fields.push(("tarball", Str(tarball)));
                if let Some(i) = integrity {
                    fields.push(("integrity", Str(i)));
                }
                if let Some(g) = git_hosted {
                    fields.push(("gitHosted", Bool(*g)));
                }
                if let Some(p) = path {
                    fields.push(("path", Str(p)));
                }
            }
            Resolution::Git { repo, commit, path } => {
                fields.push(("commit", Str(commit)));
                fields.push(("repo", Str(repo)));
                fields.push(("type", Str("git")));
                if let Some(p) = path {
                    fields.push(("path", Str(p)));
                }
            }
            Resolution::Directory { directory } => {
                fields.push(("directory", Str(directory)));
                fields.push(("type", Str("directory")));
            }
            Resolution::Other(map) => fields.extend(map.iter().map(|(k, v)| (k.as_str(), Json(v)))),
        }
        fields
    }
}
