use super::*;

use crate::test_support::host;

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn host_only_by_default() {
    let t = PlatformTargets::new(&host(), &SupportedArchitectures::default());
    assert!(t.is_installable(None, None, None));
    assert!(t.is_installable(Some(&v(&["linux"])), Some(&v(&["x64"])), None));
    assert!(!t.is_installable(Some(&v(&["darwin"])), None, None));
    assert!(!t.is_installable(None, Some(&v(&["arm64"])), None));
    assert!(!t.is_installable(None, None, Some(&v(&["musl"]))));
    assert!(t.is_installable(None, None, Some(&v(&["glibc"]))));
}

#[test]
fn negations() {
    let t = PlatformTargets::new(&host(), &SupportedArchitectures::default());
    assert!(t.is_installable(Some(&v(&["!win32"])), None, None));
    assert!(!t.is_installable(Some(&v(&["!linux"])), None, None));
    assert!(!t.is_installable(Some(&v(&["!linux", "darwin"])), None, None));
    assert!(t.is_installable(Some(&v(&["any"])), None, None));
}

#[test]
fn supported_architectures_widen_the_targets() {
    let supported = SupportedArchitectures {
        os: v(&["darwin", "current"]),
        cpu: v(&["x64", "arm64"]),
        libc: v(&["glibc", "musl"]),
    };
    let t = PlatformTargets::new(&host(), &supported);
    assert!(t.is_installable(Some(&v(&["darwin"])), Some(&v(&["arm64"])), None));
    assert!(t.is_installable(Some(&v(&["linux"])), None, Some(&v(&["musl"]))));
    assert!(!t.is_installable(Some(&v(&["win32"])), None, None));
    assert!(!t.is_installable(None, Some(&v(&["ppc64"])), None));
    assert!(!t.is_installable(Some(&v(&["!darwin"])), None, None));
}

#[test]
fn no_libc_off_linux_accepts_any_libc() {
    let mac = HostPlatform {
        os: "darwin".into(),
        cpu: "arm64".into(),
        libc: None,
    };
    let t = PlatformTargets::new(&mac, &SupportedArchitectures::default());
    assert!(t.is_installable(None, None, Some(&v(&["musl"]))));
}

#[test]
fn platform_inferred_from_name_tokens() {
    let [os, cpu, libc] = infer_platform("@typescript/typescript-darwin-arm64");
    assert_eq!(os.as_deref(), Some("darwin"));
    assert_eq!(cpu.as_deref(), Some("arm64"));
    assert_eq!(libc, None);
    let [os, cpu, libc] = infer_platform("@rollup/rollup-linux-x64-musl");
    assert_eq!(
        (os.as_deref(), cpu.as_deref(), libc.as_deref()),
        (Some("linux"), Some("x64"), Some("musl"))
    );
    assert_eq!(infer_platform("left-pad"), [None, None, None]);
}
