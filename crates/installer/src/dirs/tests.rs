use super::*;

#[test]
fn siblings_are_grouped_under_their_parent_level_by_level() {
    let dirs: Vec<String> = [
        "node_modules",
        "node_modules/.pnpm",
        "node_modules/.pnpm/a@1.0.0",
        "node_modules/.pnpm/a@1.0.0/node_modules",
        "node_modules/.pnpm/b@1.0.0",
        "node_modules/.pnpm/b@1.0.0/node_modules",
        "node_modules/.pnpm/b@1.0.0/node_modules/@scope",
        "node_modules/@types",
    ]
    .map(String::from)
    .to_vec();
    let levels = siblings_by_level(&dirs);
    assert_eq!(
        levels,
        vec![
            vec![vec!["node_modules"]],
            vec![vec!["node_modules/.pnpm", "node_modules/@types"]],
            vec![vec![
                "node_modules/.pnpm/a@1.0.0",
                "node_modules/.pnpm/b@1.0.0"
            ]],
            vec![
                vec!["node_modules/.pnpm/a@1.0.0/node_modules"],
                vec!["node_modules/.pnpm/b@1.0.0/node_modules"],
            ],
            vec![vec!["node_modules/.pnpm/b@1.0.0/node_modules/@scope"]],
        ]
    );
}

#[test]
fn every_directory_is_created_and_existing_ones_are_fine() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
    let dirs: Vec<String> = ["a", "a/b", "a/c", "a/b/d", "a/c/e", "f/g"]
        .map(String::from)
        .to_vec();
    create_dirs(tmp.path(), &dirs).unwrap();
    for dir in &dirs {
        assert!(tmp.path().join(dir).is_dir(), "{dir}");
    }
}

#[test]
fn directories_are_made_while_every_rayon_worker_is_busy() {
    use std::sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    };
    // As in a cold install, where extraction holds every worker of the
    // global pool until the downloads end: a level handed to the pool would
    // wait for them.
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<String> = std::iter::once("s".to_string())
        .chain((0..100).map(|i| format!("s/p{i}")))
        .chain((0..100).map(|i| format!("s/p{i}/node_modules")))
        .collect();
    let release = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(AtomicUsize::new(0));
    let workers = rayon::current_num_threads();
    for _ in 0..workers {
        let (release, busy) = (release.clone(), busy.clone());
        rayon::spawn(move || {
            busy.fetch_add(1, Ordering::AcqRel);
            while !release.load(Ordering::Acquire) {
                std::thread::yield_now();
            }
        });
    }
    while busy.load(Ordering::Acquire) < workers {
        std::thread::yield_now();
    }
    let (tx, rx) = mpsc::channel();
    let root = tmp.path().to_path_buf();
    let making = std::thread::spawn(move || tx.send(create_dirs(&root, &dirs).map(|()| dirs)));
    // Not a speed limit: with the pool, the call never returns while the
    // workers are held.
    let made = rx.recv_timeout(std::time::Duration::from_secs(60));
    release.store(true, Ordering::Release);
    let dirs = made
        .expect("create_dirs waited for the rayon pool")
        .unwrap();
    let _ = making.join().unwrap();
    for dir in &dirs {
        assert!(tmp.path().join(dir).is_dir(), "{dir}");
    }
}

#[test]
fn the_first_error_is_returned() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("file"), "").unwrap();
    // 100 siblings under a regular file: none can be made.
    let dirs: Vec<String> = (0..100).map(|i| format!("file/d{i}/x")).collect();
    let err = create_dirs(tmp.path(), &dirs).unwrap_err();
    assert!(err.to_string().contains("file/d"), "{err}");
}
