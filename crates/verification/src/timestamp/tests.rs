use super::{format, parse};

#[test]
fn parses_registry_forms() {
    assert_eq!(parse("1970-01-01T00:00:00.000Z"), Some(0));
    assert_eq!(parse("2020-01-01T00:00:00.000Z"), Some(1_577_836_800_000));
    assert_eq!(parse("2020-01-01T00:00:00Z"), Some(1_577_836_800_000));
    assert_eq!(
        parse("2020-01-01T01:00:00.5+01:00"),
        Some(1_577_836_800_500)
    );
    assert_eq!(parse("2024-02-29T12:34:56.789Z"), Some(1_709_210_096_789));
}

#[test]
fn rejects_what_is_not_a_date() {
    for bad in [
        "",
        "yesterday",
        "2020-13-01T00:00:00Z",
        "2020-01-01",
        "2020-01-01T00:00:00",
    ] {
        assert_eq!(parse(bad), None, "{bad}");
    }
}

#[test]
fn formats_with_milliseconds() {
    assert_eq!(format(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(format(1_709_210_096_789), "2024-02-29T12:34:56.789Z");
    let t = "2025-11-30T22:00:00.000Z";
    assert_eq!(format(parse(t).unwrap()), t);
}
