//! Inputs the fuzz targets (`just fuzz`) found; each used to misbehave.

use pacquet_store_index::{DecodeError, decode};

/// Maps used as keys of maps, nested: stringifying each key escaped the
/// level below once more, so this 811-byte row took exponential time.
#[test]
fn nested_map_keys_are_refused_quickly() {
    let row = include_bytes!("fixtures/fuzz-nested-map-keys.msgpack");
    let err = decode(row).unwrap_err();
    assert!(
        matches!(
            err,
            DecodeError::UnexpectedType { .. } | DecodeError::TooDeep { .. }
        ),
        "{err:?}"
    );

    // The same shape built by hand inside a row's manifest: 100 levels.
    let mut value = vec![0x81u8; 100];
    value.extend_from_slice(&[0xa1, b'a', 0xc0]);
    value.extend(std::iter::repeat_n(0xc0, 100));
    let mut row = vec![0x83];
    row.extend_from_slice(b"\xa4algo\xa6sha512");
    row.extend_from_slice(b"\xa5files\x80");
    row.extend_from_slice(b"\xa8manifest");
    row.extend_from_slice(&value);
    assert!(matches!(
        decode(&row),
        Err(DecodeError::UnexpectedType {
            expected: "a scalar map key",
            ..
        })
    ));
}
