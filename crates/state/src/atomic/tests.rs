use super::*;

#[test]
fn leftovers_of_dead_processes_are_swept_and_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    let me = std::process::id();
    // No process has this pid: Linux caps pids at 2^22.
    let dead = 4_194_305;
    let files = [
        format!(".modules.yaml.{dead}.tmp"),
        format!(".modules.yaml.{me}.tmp"),
        format!("lock.yaml.{dead}.tmp"),
        ".modules.yaml".to_string(),
        "other.1.tmp".to_string(),
    ];
    for f in &files {
        std::fs::write(dir.path().join(f), "x").unwrap();
    }

    sweep_stale_temps(dir.path(), &[".modules.yaml", "lock.yaml"]);

    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut want = vec![
        format!(".modules.yaml.{me}.tmp"),
        ".modules.yaml".to_string(),
        "other.1.tmp".to_string(),
    ];
    want.sort();
    assert_eq!(left, want);
}

#[test]
fn write_atomic_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lock.yaml");
    write_atomic(&path, b"a: 1\n").unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["lock.yaml"]);
    assert_eq!(std::fs::read(&path).unwrap(), b"a: 1\n");
}
