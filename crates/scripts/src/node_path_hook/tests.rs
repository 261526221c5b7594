use super::{encode_uri_component, import_option};

#[test]
fn encodes_as_encode_uri_component_does() {
    assert_eq!(
        encode_uri_component("a b/c:é'(x)*"),
        "a%20b%2Fc%3A%C3%A9'(x)*"
    );
    assert_eq!(encode_uri_component("-_.!~"), "-_.!~");
}

#[test]
fn the_option_imports_the_hook_as_a_data_url() {
    let option = import_option();
    let encoded = option
        .strip_prefix("--import=data:text/javascript,")
        .unwrap();
    assert!(!encoded.contains(' ') && !encoded.contains('\n'));
    assert!(encoded.contains("registerHooks"));
}
