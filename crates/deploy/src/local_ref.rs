//! `link:` and `file:` references of the workspace lockfile, turned into
//! the `<name>@file://<absolute path>` keys of the deploy lockfile
//! (docs/deploy.md §3).

use std::path::{Component, Path, PathBuf};

use pacquet_lockfile::DepPath;

/// A reference to a local directory (or tarball).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocalRef {
    /// Absolute, normalized.
    pub path: PathBuf,
    /// Patch hash and peer suffix, `(…)` parts, kept as they were.
    pub suffix: String,
    /// The package name a `<name>@file:…` key gave.
    pub name: Option<String>,
}

/// `file:<path>` (relative to the lockfile's directory), `link:<path>`
/// (relative to `link_base`), or a key `<name>@file:<path>(…)`; `None` for
/// anything else.
pub(crate) fn resolve_local(
    reference: &str,
    lockfile_dir: &Path,
    link_base: &Path,
) -> Option<LocalRef> {
    for (scheme, base) in [("file:", lockfile_dir), ("link:", link_base)] {
        if let Some(rest) = reference.strip_prefix(scheme) {
            let (id, suffix) = match rest.find('(') {
                Some(i) => rest.split_at(i),
                None => (rest, ""),
            };
            return Some(LocalRef {
                path: normalize(&base.join(id)),
                suffix: suffix.to_owned(),
                name: None,
            });
        }
    }
    let key = DepPath::parse(reference);
    let version = key.version();
    if !(version.starts_with("file:") || version.starts_with("link:")) {
        return None;
    }
    let mut local = resolve_local(version, lockfile_dir, link_base)?;
    local.suffix = key.suffix().to_owned();
    local.name = Some(key.name().to_owned());
    Some(local)
}

/// `<name>@<file URL>` plus the suffix: the name of the workspace project
/// in that directory, else the name the reference carried, else the
/// directory's name.
pub(crate) fn file_url_key(
    local: &LocalRef,
    project_name: impl Fn(&Path) -> Option<String>,
    alias: Option<&str>,
) -> String {
    let url = url::Url::from_file_path(&local.path)
        .map(|u| u.to_string())
        .unwrap_or_else(|()| format!("file://{}", local.path.display()));
    let name = project_name(&local.path)
        .or_else(|| local.name.clone())
        .or_else(|| alias.map(str::to_owned))
        .unwrap_or_else(|| {
            local
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
    format!("{name}@{url}{}", local.suffix)
}

/// `.` and `..` resolved lexically.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{LocalRef, file_url_key, resolve_local};

    #[test]
    fn schemes_and_keys() {
        let ws = Path::new("/ws");
        let app = Path::new("/ws/packages/app");
        assert_eq!(
            resolve_local("link:../lib", ws, app),
            Some(LocalRef {
                path: "/ws/packages/lib".into(),
                suffix: String::new(),
                name: None
            })
        );
        assert_eq!(
            resolve_local("file:packages/lib(react@18.0.0)", ws, app).map(|l| (l.path, l.suffix)),
            Some(("/ws/packages/lib".into(), "(react@18.0.0)".to_owned()))
        );
        let key = resolve_local("@s/lib@file:packages/lib(a@1.0.0)", ws, app).unwrap();
        assert_eq!(key.name.as_deref(), Some("@s/lib"));
        assert_eq!(key.suffix, "(a@1.0.0)");
        assert_eq!(resolve_local("1.0.0(react@18.0.0)", ws, app), None);
        assert_eq!(resolve_local("pq-dup@1.0.0", ws, app), None);
        assert_eq!(
            file_url_key(&key, |_| Some("@s/real".to_owned()), None),
            "@s/real@file:///ws/packages/lib(a@1.0.0)"
        );
        let spaced = resolve_local("link:../my lib", ws, app).unwrap();
        assert_eq!(
            file_url_key(&spaced, |_| None, Some("x")),
            "x@file:///ws/packages/my%20lib"
        );
    }
}
