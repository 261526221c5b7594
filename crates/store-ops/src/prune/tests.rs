use std::collections::HashSet;

use pacquet_store_index::{FileInfo, PackageFilesIndex, encode};

use super::{package_json_removed, sweep_files};

fn name(c: char) -> String {
    std::iter::repeat_n(c, 126).collect()
}

#[test]
fn sweep_removes_only_unkept_single_link_blobs() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    for shard in ["aa", "bb", "cc"] {
        std::fs::create_dir_all(files.join(shard)).unwrap();
    }
    let lonely = files.join("aa").join(name('1'));
    let linked = files.join("bb").join(name('2'));
    let kept = files.join("cc").join(format!("{}-exec", name('3')));
    let stream = files.join("stream12345");
    for path in [&lonely, &linked, &kept, &stream] {
        std::fs::write(path, "abc").unwrap();
    }
    // A node_modules hard link keeps a blob whatever references it.
    std::fs::hard_link(&linked, tmp.path().join("node_modules_link")).unwrap();
    let keep: HashSet<String> = [format!("cc/{}-exec", name('3'))].into();

    let (count, bytes, removed) = sweep_files(&files, &keep).unwrap();

    assert_eq!((count, bytes), (1, 3));
    assert_eq!(removed, HashSet::from([format!("aa{}", name('1'))]));
    assert!(!lonely.exists());
    assert!(linked.exists() && kept.exists() && stream.exists());
}

#[test]
fn a_row_goes_with_its_package_json_blob() {
    let digest = format!("ab{}", name('4'));
    let row = PackageFilesIndex {
        algo: "sha512".into(),
        files: vec![(
            "package.json".into(),
            FileInfo {
                digest: digest.clone(),
                mode: 0o644,
                size: 3,
                checked_at: None,
            },
        )],
        ..PackageFilesIndex::default()
    };
    let data = encode(&row);
    assert!(package_json_removed(&data, &HashSet::from([digest])));
    assert!(!package_json_removed(&data, &HashSet::new()));
    // Rows that cannot be read are kept.
    assert!(!package_json_removed(b"not msgpack", &HashSet::new()));
}
