use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Pool, sized, with_large};

#[test]
fn a_kept_buffer_is_reused_when_it_is_large_enough() {
    let pool = Pool::new(4, 1 << 20, 1 << 30);
    let mut buffer = pool.take(1000);
    assert!(buffer.capacity() >= 1000);
    buffer.extend_from_slice(&[7; 1000]);
    let address = buffer.as_ptr();
    pool.give(buffer);

    let again = pool.take(800);
    assert_eq!(again.as_ptr(), address);
    assert!(again.is_empty(), "a reused buffer starts empty");
    pool.give(again);

    let larger = pool.take(5000);
    assert_ne!(
        larger.as_ptr(),
        address,
        "a buffer too small is not handed out"
    );
    assert!(larger.capacity() >= 5000);
    // The small one is still kept.
    let small = pool.take(10);
    assert_eq!(small.as_ptr(), address);
}

#[test]
fn the_smallest_buffer_that_fits_is_taken() {
    let pool = Pool::new(4, 1 << 20, 1 << 30);
    let (big, small) = (
        Vec::<u8>::with_capacity(64 << 10),
        Vec::<u8>::with_capacity(4 << 10),
    );
    let (big_at, small_at) = (big.as_ptr(), small.as_ptr());
    pool.give(big);
    pool.give(small);
    let first = pool.take(3 << 10);
    let second = pool.take(3 << 10);
    assert_eq!(first.as_ptr(), small_at);
    assert_eq!(second.as_ptr(), big_at);
}

#[test]
fn buffers_over_the_limit_are_not_kept() {
    let pool = Pool::new(4, 1 << 10, 1 << 30);
    pool.give(Vec::with_capacity(2 << 10));
    assert_eq!(pool.kept_capacities().len(), 0);
    pool.give(Vec::new());
    assert_eq!(
        pool.kept_capacities().len(),
        0,
        "nothing to keep in an empty Vec"
    );
    pool.give(Vec::with_capacity(1 << 10));
    assert_eq!(pool.kept_capacities().len(), 1, "at the limit is kept");
}

#[test]
fn a_full_pool_keeps_the_larger_buffers() {
    let pool = Pool::new(2, 1 << 20, 1 << 30);
    pool.give(Vec::with_capacity(100));
    pool.give(Vec::with_capacity(200));
    pool.give(Vec::with_capacity(300));
    pool.give(Vec::with_capacity(50));
    let kept = pool.kept_capacities();
    assert_eq!(kept.len(), 2);
    assert!(kept[0] >= 200 && kept[0] < 300, "{kept:?}");
    assert!(kept[1] >= 300, "{kept:?}");
}

#[test]
fn the_pool_keeps_no_more_bytes_than_its_limit() {
    let pool = Pool::new(100, 1 << 20, 10_000);
    for _ in 0..4 {
        pool.give(Vec::with_capacity(3_000));
    }
    assert_eq!(
        pool.kept_capacities().len(),
        3,
        "a fourth would exceed 10,000 bytes"
    );
    // A larger buffer replaces a smaller one only within the limit.
    pool.give(Vec::with_capacity(4_000));
    assert_eq!(pool.kept_capacities().iter().sum::<usize>(), 10_000);
    pool.give(Vec::with_capacity(6_000));
    assert!(pool.kept_capacities().iter().sum::<usize>() <= 10_000);
    // Taking gives the bytes back.
    let taken = pool.take(3_500);
    assert!(taken.capacity() >= 3_500);
    pool.give(Vec::with_capacity(3_000));
    assert!(pool.kept_capacities().iter().sum::<usize>() <= 10_000);
}

#[test]
fn the_large_buffer_is_kept_and_used_by_one_thread_at_a_time() {
    let address = with_large(|buffer| {
        sized(buffer, 1 << 20);
        buffer.as_ptr() as usize
    });
    assert_eq!(with_large(|buffer| buffer.as_ptr() as usize), address);

    let inside = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..50 {
                    with_large(|_| {
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    });
                }
            });
        }
    });
    assert_eq!(most.load(Ordering::SeqCst), 1);
}

#[test]
fn the_large_buffer_holds_the_largest_whole_inflation_without_moving() {
    // Every size a whole inflation may have fits without replacing the
    // buffer (whose new pages would be faulted in again).
    let whole_max = usize::try_from(crate::inflate::WHOLE_MAX).unwrap();
    let address = with_large(|buffer| {
        assert!(buffer.capacity() >= whole_max);
        sized(buffer, 9 << 20);
        buffer.as_ptr() as usize
    });
    let moved = with_large(|buffer| {
        sized(buffer, whole_max);
        buffer.as_ptr() as usize
    });
    assert_eq!(moved, address);
}

#[test]
fn sized_gives_exactly_len_bytes_and_zeroes_new_ones() {
    let mut buffer = Vec::new();
    assert_eq!(sized(&mut buffer, 10), &[0; 10]);
    sized(&mut buffer, 10).fill(9);

    // Shorter: the same allocation, the old bytes as they were.
    let address = buffer.as_ptr();
    let shorter = sized(&mut buffer, 4);
    assert_eq!(shorter, &[9; 4]);
    assert_eq!(shorter.as_ptr(), address);

    // Longer within capacity: the same allocation, the new bytes zeroed.
    buffer.truncate(4);
    buffer.reserve_exact(100);
    let address = buffer.as_ptr();
    let longer = sized(&mut buffer, 50);
    assert_eq!(longer.as_ptr(), address);
    assert_eq!(&longer[..4], &[9; 4]);
    assert!(longer[4..].iter().all(|&b| b == 0));

    // Beyond capacity: a new, zeroed allocation.
    let capacity = buffer.capacity();
    let grown = sized(&mut buffer, capacity + 1);
    assert_eq!(grown.len(), capacity + 1);
    assert!(grown.iter().all(|&b| b == 0));
}
