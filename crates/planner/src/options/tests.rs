use super::{IncludedGroups, PlanOptions};
use crate::test_support::{host, url as registry};

fn mirror(name: &str, version: &str) -> String {
    format!("https://mirror.example/{name}-{version}.tgz")
}

#[test]
fn the_shape_key_ignores_where_packages_come_from() {
    let a = PlanOptions::new(host(), &registry);
    let b = PlanOptions::new(host(), &mirror);
    assert_eq!(a.shape_key(), b.shape_key());
}

#[test]
fn the_shape_key_changes_with_what_decides_the_layout() {
    let base = PlanOptions::new(host(), &registry);
    let key = base.shape_key();
    let changed: [fn(&mut PlanOptions<'_>); 4] = [
        |o| o.hoist_pattern.clear(),
        |o| {
            o.included = IncludedGroups {
                dev_dependencies: false,
                ..IncludedGroups::default()
            }
        },
        |o| {
            o.importers
                .push(crate::ImporterSelection::new("packages/a", None))
        },
        |o| o.node_version = Some("22.0.0".into()),
    ];
    for change in changed {
        let mut opts = base.clone();
        change(&mut opts);
        assert_ne!(opts.shape_key(), key);
    }
}
