use std::sync::Arc;

use super::MirrorWriter;

#[test]
fn finishing_waits_for_every_queued_file_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let writer = MirrorWriter::default();
    for i in 0..200 {
        let path = dir.path().join("sub").join(format!("{}.json", i % 50));
        writer.write(path, Arc::new(format!("{i}").into_bytes()));
    }
    writer.finish();
    for i in 150..200 {
        let path = dir.path().join("sub").join(format!("{}.json", i % 50));
        // The last write of each path is what stays.
        assert_eq!(std::fs::read_to_string(path).unwrap(), i.to_string());
    }
    // No temporary file is left beside them.
    assert_eq!(
        std::fs::read_dir(dir.path().join("sub")).unwrap().count(),
        50
    );
}

#[test]
fn dropping_waits_and_writing_after_finishing_starts_again() {
    let dir = tempfile::tempdir().unwrap();
    {
        let writer = MirrorWriter::default();
        writer.write(dir.path().join("a"), Arc::new(b"1".to_vec()));
        writer.finish();
        writer.write(dir.path().join("b"), Arc::new(b"2".to_vec()));
    }
    assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"1");
    assert_eq!(std::fs::read(dir.path().join("b")).unwrap(), b"2");
}
