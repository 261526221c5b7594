use std::borrow::Cow;

use super::folded;

#[test]
fn aliases_fold_to_lowercase_and_borrow_when_they_already_are() {
    assert!(matches!(folded("react-dom"), Cow::Borrowed("react-dom")));
    assert!(matches!(
        folded("@types/node"),
        Cow::Borrowed("@types/node")
    ));
    assert_eq!(folded("JSONStream"), "jsonstream");
    assert!(matches!(folded("JSONStream"), Cow::Owned(_)));
    assert_eq!(folded("Ärger"), "ärger");
}
