use std::cmp::Ordering;

use super::{Claim, compare, owns_command};

fn claim(package_name: &str, direct: bool) -> Claim<'_> {
    Claim {
        package_name,
        direct,
    }
}

#[test]
fn direct_beats_hoisted_owner() {
    let direct = claim("zzz", true);
    let hoisted_owner = claim("tool", false);
    assert_eq!(compare("tool", direct, hoisted_owner), Ordering::Greater);
    assert_eq!(compare("tool", hoisted_owner, direct), Ordering::Less);
}

#[test]
fn owner_beats_lexically_smaller() {
    assert_eq!(
        compare("tool", claim("tool", true), claim("aaa", true)),
        Ordering::Greater
    );
}

#[test]
fn lexical_fallback() {
    assert_eq!(
        compare("tool", claim("aaa", false), claim("bbb", false)),
        Ordering::Greater
    );
    assert_eq!(
        compare("tool", claim("bbb", true), claim("aaa", true)),
        Ordering::Less
    );
}

#[test]
fn aliases() {
    assert!(owns_command("npx", "npm"));
    assert!(owns_command("pnx", "@pnpm/exe"));
    assert!(owns_command("pn", "pnpm"));
    assert!(!owns_command("npm", "npx"));
    assert!(!owns_command("tool", "@scope/tool"));
}
