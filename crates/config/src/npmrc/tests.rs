use pretty_assertions::assert_eq;

use super::{NpmrcKey, classify, parse_ini};

#[test]
fn parses_comments_quotes_and_spacing() {
    let text = "# comment\n; other\n registry = \"https://quoted.example\" \n\
                @corp:registry='https://corp.example/api'\n\
                //h.example/:_authToken=a=b\n\
                registry2=https://a.example/ ; trailing\n\
                [section]\nnovalue\n";
    assert_eq!(
        parse_ini(text),
        vec![
            ("registry".to_owned(), "https://quoted.example".to_owned()),
            (
                "@corp:registry".to_owned(),
                "https://corp.example/api".to_owned()
            ),
            ("//h.example/:_authToken".to_owned(), "a=b".to_owned()),
            (
                "registry2".to_owned(),
                "https://a.example/ ; trailing".to_owned()
            ),
        ]
    );
}

#[test]
fn classifies_keys() {
    assert_eq!(classify("registry"), NpmrcKey::Registry);
    assert_eq!(classify("@a:registry"), NpmrcKey::Registry);
    assert_eq!(classify("//r/:_authToken"), NpmrcKey::PerRegistry);
    assert_eq!(classify("https-proxy"), NpmrcKey::Proxy);
    assert_eq!(classify("strict-ssl"), NpmrcKey::Network);
    assert_eq!(classify("store-dir"), NpmrcKey::Ignored);
    assert_eq!(classify("node-linker"), NpmrcKey::Ignored);
}
