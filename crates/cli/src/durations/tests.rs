use super::*;

#[test]
fn full_durations_read_as_pnpm_writes_them() {
    assert_eq!(pretty_ms(0), "0ms");
    assert_eq!(pretty_ms(999), "999ms");
    assert_eq!(pretty_ms(1000), "1s");
    assert_eq!(pretty_ms(1234), "1.2s");
    assert_eq!(pretty_ms(1250), "1.3s");
    assert_eq!(pretty_ms(62_500), "1m 2.5s");
    assert_eq!(pretty_ms(60_000), "1m");
    assert_eq!(pretty_ms(60_020), "1m");
    assert_eq!(pretty_ms(97_445_000), "1d 3h 4m 5s");
}

#[test]
fn compact_durations_keep_the_largest_unit() {
    assert_eq!(pretty_ms_compact(5), "5ms");
    assert_eq!(pretty_ms_compact(4_900), "4s");
    assert_eq!(pretty_ms_compact(90_000), "1m");
    assert_eq!(pretty_ms_compact(7_300_000), "2h");
    assert_eq!(pretty_ms_compact(200_000_000), "2d");
}
