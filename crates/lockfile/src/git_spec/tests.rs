use super::specs_equal;

const SHA: &str = "1d7e288222b53a0cab90a331f1865220ec29560c";

#[test]
fn spellings_observed_equal_in_pnpm_12() {
    let canonical = format!("github:kevva/is-negative#{SHA}");
    for other in [
        format!("kevva/is-negative#{SHA}"),
        format!("git+https://github.com/kevva/is-negative.git#{SHA}"),
        format!("https://github.com/kevva/is-negative#{SHA}"),
        format!("git@github.com:kevva/is-negative.git#{SHA}"),
    ] {
        assert!(specs_equal(&canonical, &other), "{other}");
    }
    assert!(!specs_equal(&canonical, "github:kevva/is-negative#1d7e288"));
    assert!(!specs_equal(
        &canonical,
        &format!("gitlab:kevva/is-negative#{SHA}")
    ));
    assert!(!specs_equal("^1.0.0", "^1.0.1"));
    assert!(!specs_equal("file:a/b", "github:a/b"));
    assert!(specs_equal("npm:a@1", "npm:a@1"));
}
