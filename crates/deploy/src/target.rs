//! The deploy directory: refused where it would overwrite the workspace,
//! the project or the current directory, and emptied only with `--force`
//! (docs/deploy.md §2).

use std::path::Path;

use crate::{DeployError, local_ref::normalize};

/// Where a deploy may not go, checked before anything is written.
pub(crate) struct Places<'a> {
    pub target: &'a Path,
    pub workspace: &'a Path,
    pub project: &'a Path,
    pub cwd: &'a Path,
}

pub(crate) fn validate(places: &Places<'_>, force: bool) -> Result<(), DeployError> {
    let target = normalize(places.target);
    let unsafe_target = |reason| DeployError::UnsafeTarget {
        dir: target.clone(),
        reason,
    };
    let checks: [(&Path, &'static str, &'static str); 3] = [
        (
            places.workspace,
            "target is the workspace root",
            "target contains the workspace root",
        ),
        (
            places.project,
            "target is the selected project root",
            "target contains the selected project",
        ),
        (
            places.cwd,
            "target is the current directory",
            "target contains the current directory",
        ),
    ];
    for (place, same, contains) in checks {
        let place = normalize(place);
        if target == place {
            return Err(unsafe_target(same));
        }
        if place.starts_with(&target) {
            return Err(unsafe_target(contains));
        }
    }
    let workspace = normalize(places.workspace);
    let inside = target.starts_with(&workspace);
    if force && !inside {
        return Err(unsafe_target("target is outside the workspace"));
    }
    if inside {
        no_symlink_below(&workspace, &target)?;
    }
    Ok(())
}

/// A target inside the workspace may not be reached through a symlink.
fn no_symlink_below(workspace: &Path, target: &Path) -> Result<(), DeployError> {
    let Ok(relative) = target.strip_prefix(workspace) else {
        return Ok(());
    };
    let mut current = workspace.to_path_buf();
    for component in relative.components() {
        current.push(component);
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(DeployError::UnsafeTarget {
                    dir: current,
                    reason: "target path contains a symlink",
                });
            }
            Ok(_) => {}
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// An empty (or new) directory at `target`; a non-empty one is removed
/// first with `force`, refused without.
pub(crate) fn prepare(target: &Path, force: bool) -> Result<(), DeployError> {
    let empty = match std::fs::read_dir(target) {
        Ok(mut entries) => entries.next().is_none(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(e) => return Err(DeployError::io("read", target)(e)),
    };
    if !empty {
        if !force {
            return Err(DeployError::NotEmpty {
                dir: target.to_path_buf(),
            });
        }
        std::fs::remove_dir_all(target).map_err(DeployError::io("remove", target))?;
    }
    std::fs::create_dir_all(target).map_err(DeployError::io("create", target))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Places, validate};
    use crate::DeployError;

    fn reason(target: &str, force: bool) -> Option<&'static str> {
        let places = Places {
            target: Path::new(target),
            workspace: Path::new("/ws"),
            project: Path::new("/ws/packages/app"),
            cwd: Path::new("/ws"),
        };
        match validate(&places, force) {
            Ok(()) => None,
            Err(DeployError::UnsafeTarget { reason, .. }) => Some(reason),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn unsafe_targets() {
        assert_eq!(reason("/ws", false), Some("target is the workspace root"));
        assert_eq!(
            reason("/", false),
            Some("target contains the workspace root")
        );
        assert_eq!(
            reason("/ws/packages/app", false),
            Some("target is the selected project root")
        );
        assert_eq!(
            reason("/ws/packages", false),
            Some("target contains the selected project")
        );
        assert_eq!(
            reason("/out", true),
            Some("target is outside the workspace")
        );
        assert_eq!(reason("/out", false), None);
        assert_eq!(reason("/ws/dist/app", false), None);
    }
}
