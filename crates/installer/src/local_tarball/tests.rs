use std::io::Write;

use super::read;

fn tarball(files: &[(&str, &str)]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (path, text) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(text.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, path, text.as_bytes())
            .unwrap();
    }
    let tar = builder.into_inner().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

#[test]
fn the_root_manifest_and_the_integrity_of_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("x.tgz");
    let bytes = tarball(&[
        ("package/lib/package.json", r#"{"name": "nested"}"#),
        (
            "package/package.json",
            r#"{"name": "x", "version": "1.2.3"}"#,
        ),
    ]);
    std::fs::write(&path, &bytes).unwrap();
    let (manifest, integrity) = read(&path).unwrap();
    assert_eq!(manifest["name"], "x");
    assert_eq!(manifest["version"], "1.2.3");
    let expected = ssri::IntegrityOpts::new()
        .algorithm(ssri::Algorithm::Sha512)
        .chain(&bytes)
        .result()
        .to_string();
    assert_eq!(integrity, expected);
}

#[test]
fn what_is_not_a_package_tarball_is_refused_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = read(&tmp.path().join("none.tgz")).unwrap_err();
    assert!(missing.contains("as it does not exist"), "{missing}");
    let path = tmp.path().join("empty.tgz");
    std::fs::write(&path, tarball(&[("package/index.js", "")])).unwrap();
    assert!(read(&path).unwrap_err().contains("no package.json"));
    std::fs::write(&path, b"\x1f\x8bnot gzip").unwrap();
    assert!(read(&path).is_err());
}
