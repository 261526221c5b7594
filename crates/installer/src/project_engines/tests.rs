use std::path::PathBuf;

use pacquet_lockfile::{ProjectEngines, ProjectManifest};

use super::check;
use crate::{InstallError, gates::Project};

fn project(node: Option<&str>, pnpm: Option<&str>) -> Project {
    Project {
        id: ".".into(),
        dir: PathBuf::from("/w"),
        manifest: ProjectManifest {
            engines: ProjectEngines {
                node: node.map(str::to_owned),
                pnpm: pnpm.map(str::to_owned),
            },
            ..ProjectManifest::default()
        },
    }
}

fn node20() -> Option<String> {
    Some("20.20.2".into())
}

#[test]
fn a_node_range_warns_as_pnpm_12_words_it() {
    let warnings = check(&[project(Some(">=24"), None)], node20, false).unwrap();
    assert_eq!(
        warnings,
        [r#"Unsupported engine for /w: wanted: {"node":">=24"} (current: {"node":"20.20.2"})"#]
    );
}

#[test]
fn a_pnpm_range_refuses() {
    let err = check(
        &[project(None, Some("^9"))],
        || panic!("node not needed"),
        false,
    )
    .unwrap_err();
    let InstallError::UnsupportedProjectEngine { message } = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        message,
        r#"Unsupported engine for /w: wanted: {"pnpm":"^9"} (current: {"node":"","pnpm":"12.21.0"})"#
    );
    let err = check(&[project(Some(">=24"), Some("^10"))], node20, false).unwrap_err();
    assert!(err.to_string().contains(
        r#"wanted: {"node":">=24","pnpm":"^10"} (current: {"node":"20.20.2","pnpm":"12.21.0"})"#
    ));
}

#[test]
fn satisfied_ranges_pass_and_engine_strict_refuses_node() {
    assert!(
        check(&[project(Some(">=18"), Some(">=12"))], node20, false)
            .unwrap()
            .is_empty()
    );
    assert!(check(&[project(Some(">=24"), None)], node20, true).is_err());
}
