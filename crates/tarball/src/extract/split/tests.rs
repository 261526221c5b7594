use super::{ranges_for, run};

/// The ranges cover `0..n` in order, without gaps or empty parts.
fn assert_partition(ranges: &[std::ops::Range<usize>], n: usize) {
    let mut next = 0;
    for range in ranges {
        assert_eq!(range.start, next, "{ranges:?}");
        assert!(range.end > range.start || n == 0, "{ranges:?}");
        next = range.end;
    }
    assert_eq!(next, n, "{ranges:?}");
}

#[test]
fn light_batches_stay_whole() {
    assert_eq!(ranges_for(&[100, 200, 300], 1_000, 4), vec![0..3]);
    assert_eq!(ranges_for(&[], 1_000, 4), vec![0..0]);
    // One core: never split, whatever the weight.
    assert_eq!(ranges_for(&[5_000; 8], 1_000, 1), vec![0..8]);
}

#[test]
fn parts_are_about_equal_and_bounded_by_cores_and_weight() {
    let weights = vec![100u64; 1_000];
    // 100,000 in all: at most 100,000 / 30,000 = 3 parts of 30,000 or more.
    let split = ranges_for(&weights, 30_000, 8);
    assert_eq!(split, vec![0..334, 334..667, 667..1_000]);
    let split = ranges_for(&weights, 1_000, 2);
    assert_eq!(split, vec![0..500, 500..1_000]);
}

#[test]
fn a_heavy_item_takes_a_part_of_its_own() {
    // One file (the first) weighs as much as all the others.
    let mut weights = vec![1_000u64];
    weights.extend([10; 100]);
    let split = ranges_for(&weights, 100, 2);
    assert_eq!(split, vec![0..1, 1..101]);
    assert_partition(&ranges_for(&weights, 100, 7), weights.len());
}

#[test]
fn any_weights_give_a_partition() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for n in [1usize, 2, 3, 7, 64, 513] {
        for cores in 1..=6 {
            let weights: Vec<u64> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x % 5_000
                })
                .collect();
            let split = ranges_for(&weights, 1_000, cores);
            assert!(split.len() <= cores, "{split:?}");
            assert_partition(&split, n);
        }
    }
}

#[test]
fn run_returns_results_in_range_order() {
    let ranges = vec![0..3, 3..4, 4..10, 10..12];
    let sums = run(&ranges, |r| {
        (r.start..r.end).sum::<usize>() + usize::from(std::thread::current().name().is_some())
    });
    // Only the first range runs on the calling thread (the test harness
    // names it); helpers are unnamed.
    assert_eq!(sums, vec![3 + 1, 3, 4 + 5 + 6 + 7 + 8 + 9, 10 + 11]);
    assert_eq!(run(&[], |r| r.len()), Vec::<usize>::new());
}
