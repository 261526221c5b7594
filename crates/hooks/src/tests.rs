use super::*;

fn pnpmfile(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn read_package_changes_manifests_and_keeps_logs() {
    let dir = tempfile::tempdir().unwrap();
    let path = pnpmfile(
        dir.path(),
        ".pnpmfile.cjs",
        "module.exports = { hooks: { readPackage(pkg, ctx) { ctx.log('saw ' + pkg.name); \
         if (pkg.name === 'a') pkg.dependencies.b = '^1.0.0'; return pkg } } }",
    );
    let hooks = Pnpmfile::load(&path, dir.path()).unwrap();
    assert!(hooks.has_read_package());
    let out = hooks
        .read_package(&serde_json::json!({"name": "a", "version": "1.0.0"}))
        .unwrap();
    assert_eq!(out.logs, ["saw a"]);
    assert_eq!(
        out.manifest,
        serde_json::json!({"name": "a", "version": "1.0.0", "dependencies": {"b": "^1.0.0"},
            "devDependencies": {}, "optionalDependencies": {}, "peerDependencies": {}})
    );
    // Many calls over the one process.
    for _ in 0..50 {
        let out = hooks
            .read_package(&serde_json::json!({"name": "c"}))
            .unwrap();
        assert_eq!(out.manifest["dependencies"], serde_json::json!({}));
    }
}

/// What a hook prints does not get in the way of its answers.
#[test]
fn printing_hooks_still_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = pnpmfile(
        dir.path(),
        ".pnpmfile.cjs",
        "console.log('loading'); module.exports = { hooks: { readPackage(pkg) { \
         console.log('saw', pkg.name); process.stdout.write('raw\\n'); console.info({ a: 1 }); return pkg } } }",
    );
    let hooks = Pnpmfile::load(&path, dir.path()).unwrap();
    for name in ["a", "b"] {
        let out = hooks
            .read_package(&serde_json::json!({ "name": name }))
            .unwrap();
        assert_eq!(out.manifest["name"], name);
    }
}

#[test]
fn esm_pnpmfiles_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = pnpmfile(
        dir.path(),
        ".pnpmfile.mjs",
        "export const hooks = { readPackage: async (pkg) => ({ ...pkg, description: 'x' }) }",
    );
    let hooks = Pnpmfile::load(&path, dir.path()).unwrap();
    let out = hooks
        .read_package(&serde_json::json!({"name": "a"}))
        .unwrap();
    assert_eq!(out.manifest["description"], "x");
}

#[test]
fn bad_results_and_throws_are_errors_with_pnpm_codes() {
    let dir = tempfile::tempdir().unwrap();
    let path = pnpmfile(
        dir.path(),
        ".pnpmfile.cjs",
        "module.exports = { hooks: { readPackage(pkg) { if (pkg.name === 'none') return undefined; \
         if (pkg.name === 'list') { pkg.dependencies = []; return pkg } throw new Error('boom') } } }",
    );
    let hooks = Pnpmfile::load(&path, dir.path()).unwrap();
    let none = hooks
        .read_package(&serde_json::json!({"name": "none"}))
        .unwrap_err();
    assert!(matches!(none, HookError::BadResult { .. }), "{none}");
    assert!(none.to_string().starts_with(
        "readPackage hook did not return a package manifest object. Hook imported via"
    ));
    let list = hooks
        .read_package(&serde_json::json!({"name": "list"}))
        .unwrap_err();
    assert!(
        list.to_string()
            .contains("property 'dependencies' must be an object"),
        "{list}"
    );
    let thrown = hooks
        .read_package(&serde_json::json!({"name": "x"}))
        .unwrap_err();
    assert!(matches!(thrown, HookError::Execution { .. }));
    assert!(thrown.to_string().ends_with("Error: \"boom\"."), "{thrown}");
    // Still answering after errors.
    assert!(
        hooks
            .read_package(&serde_json::json!({"name": "none"}))
            .is_err()
    );
}

#[test]
fn pnpmfiles_that_fail_or_ask_for_more_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let broken = pnpmfile(dir.path(), "broken.cjs", "throw new Error('cannot load')");
    let err = Pnpmfile::load(&broken, dir.path()).err().unwrap();
    assert!(err.to_string().contains("cannot load"), "{err}");
    let more = pnpmfile(
        dir.path(),
        "more.cjs",
        "module.exports = { hooks: { readPackage: p => p, afterAllResolved: l => l } }",
    );
    let err = Pnpmfile::load(&more, dir.path())
        .unwrap()
        .check_resolvable()
        .unwrap_err();
    assert!(
        matches!(err, HookError::Unsupported { ref hooks, .. } if hooks == "afterAllResolved"),
        "{err}"
    );
    let resolvers = pnpmfile(
        dir.path(),
        "resolvers.cjs",
        "module.exports = { resolvers: [] }",
    );
    let err = Pnpmfile::load(&resolvers, dir.path())
        .unwrap()
        .check_resolvable()
        .unwrap_err();
    assert!(
        matches!(err, HookError::Unsupported { ref hooks, .. } if hooks == "resolvers"),
        "{err}"
    );
    let bare = pnpmfile(dir.path(), "bare.cjs", "module.exports = { finders: {} }");
    let bare = Pnpmfile::load(&bare, dir.path()).unwrap();
    assert!(!bare.has_read_package());
    assert!(bare.check_resolvable().is_ok());
}
