use super::*;

#[test]
fn cycles_are_one_component_listed_after_what_they_reach() {
    // 0 → 1 ⇄ 2 → 3, 3 → 3, 4 alone.
    let edges = vec![vec![1], vec![2], vec![1, 3], vec![3], vec![]];
    let found = strongly_connected_components(&edges);
    let sorted = |mut c: Vec<usize>| {
        c.sort();
        c
    };
    let found: Vec<Vec<usize>> = found.into_iter().map(sorted).collect();
    assert_eq!(found, vec![vec![3], vec![1, 2], vec![0], vec![4]]);
}
