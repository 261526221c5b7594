//! The `pnpm-workspace.yaml` pnpm 12.21 writes into the deploy directory:
//! a fixed list of settings (docs/deploy.md §4).

/// The source workspace's values the file carries.
#[derive(Debug, Clone, Default)]
pub struct DeploySettings {
    pub ignored_optional_dependencies: Vec<String>,
    pub auto_install_peers: bool,
    pub dedupe_peers: bool,
    pub peers_suffix_max_length: u64,
    pub exclude_links_from_lockfile: bool,
    /// `allowBuilds` of the source with the deployed workspace projects
    /// allowed; written sorted, left out when empty.
    pub allow_builds: Vec<(String, bool)>,
}

/// The file's text.
pub fn render_workspace_yaml(s: &DeploySettings) -> String {
    let mut out = String::new();
    out.push_str("ignorePnpmfile: true\n");
    out.push_str("ignoredOptionalDependencies:");
    if s.ignored_optional_dependencies.is_empty() {
        out.push_str(" []\n");
    } else {
        out.push('\n');
        for name in &s.ignored_optional_dependencies {
            out.push_str(&format!("- {}\n", value(name)));
        }
    }
    out.push_str(&format!("autoInstallPeers: {}\n", s.auto_install_peers));
    out.push_str("dedupePeerDependents: false\n");
    out.push_str(&format!("dedupePeers: {}\n", s.dedupe_peers));
    out.push_str(&format!(
        "peersSuffixMaxLength: {}\n",
        s.peers_suffix_max_length
    ));
    out.push_str(&format!(
        "excludeLinksFromLockfile: {}\n",
        s.exclude_links_from_lockfile
    ));
    out.push_str("dedupeInjectedDeps: false\n");
    out.push_str("injectWorkspacePackages: false\n");
    out.push_str("packages:\n- '.'\n");
    out.push_str("virtualStoreType: project\n");
    if !s.allow_builds.is_empty() {
        let mut builds = s.allow_builds.clone();
        builds.sort_by(|a, b| a.0.cmp(&b.0));
        out.push_str("allowBuilds:\n");
        for (name, allowed) in builds {
            out.push_str(&format!("  {}: {allowed}\n", key(&name)));
        }
    }
    out
}

/// Plain when it cannot be read as anything but a string.
fn is_plain(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    first.is_ascii_alphabetic()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !matches!(s, "true" | "false" | "null" | "yes" | "no" | "on" | "off")
}

/// Mapping keys that need quoting are double-quoted (`"@scope/name"`).
fn key(s: &str) -> String {
    if is_plain(s) {
        s.to_owned()
    } else {
        serde_json::to_string(s).expect("a string serializes")
    }
}

/// Sequence items that need quoting are single-quoted (`'.'`).
fn value(s: &str) -> String {
    if is_plain(s) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

#[cfg(test)]
mod tests {
    use super::{DeploySettings, render_workspace_yaml};

    /// The text pnpm 12.21 wrote for a deploy of the filter fixture's app.
    #[test]
    fn as_pnpm_writes_it() {
        let text = render_workspace_yaml(&DeploySettings {
            ignored_optional_dependencies: vec!["foo".into()],
            auto_install_peers: true,
            dedupe_peers: false,
            peers_suffix_max_length: 1000,
            exclude_links_from_lockfile: false,
            allow_builds: vec![
                ("pq-plain".into(), true),
                ("@pq-f/x".into(), false),
                ("@pq-f/lib@file:///tmp/exp/d2/packages/lib".into(), true),
            ],
        });
        assert_eq!(
            text,
            "ignorePnpmfile: true
ignoredOptionalDependencies:
- foo
autoInstallPeers: true
dedupePeerDependents: false
dedupePeers: false
peersSuffixMaxLength: 1000
excludeLinksFromLockfile: false
dedupeInjectedDeps: false
injectWorkspacePackages: false
packages:
- '.'
virtualStoreType: project
allowBuilds:
  \"@pq-f/lib@file:///tmp/exp/d2/packages/lib\": true
  \"@pq-f/x\": false
  pq-plain: true
"
        );
    }
}
