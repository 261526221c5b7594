//! `written-by-pnpm.jsonl` is the abbreviated mirror pnpm 12.21 wrote for
//! `served-by-registry.json` (a full document the test registry sent for an
//! abbreviated request, with ETag `"e-938"`).

use super::*;

const BY_PNPM: &[u8] = include_bytes!("written-by-pnpm.jsonl");
const SERVED: &[u8] = include_bytes!("served-by-registry.json");

#[test]
fn a_file_pnpm_wrote_reads_back_as_a_document() {
    let mirrored = decode(BY_PNPM).unwrap();
    assert_eq!(mirrored.headers.etag.as_deref(), Some("\"e-938\""));
    let doc: Value = serde_json::from_slice(&mirrored.document).unwrap();
    assert_eq!(doc["modified"], "2020-01-01T00:00:00.000Z");
    assert_eq!(doc["dist-tags"]["latest"], "1.1.0");
    assert_eq!(doc["time"]["1.1.0"], "2020-01-01T00:00:00.000Z");
    assert_eq!(
        doc["versions"]["1.0.0"]["dist"]["tarball"],
        "http://127.0.0.1:4873/pq-plain/-/pq-plain-1.0.0.tgz"
    );
    assert_eq!(doc["versions"].as_object().unwrap().len(), 2);
}

#[test]
fn a_written_file_holds_the_document_as_sent_and_its_validators() {
    let file = encode(SERVED, Some("\"e-1\"")).unwrap();
    let first_line = file.split(|&b| b == b'\n').next().unwrap();
    assert_eq!(
        first_line,
        br#"{"etag":"\"e-1\"","modified":"2020-01-01T00:00:00.000Z"}"#
    );
    let mirrored = decode(&file).unwrap();
    assert_eq!(mirrored.document, SERVED);
    assert_eq!(mirrored.headers.etag.as_deref(), Some("\"e-1\""));
    // A top-level `modified` (an abbreviated document's) comes first.
    let corgi = br#"{"name":"x","modified":"2021-02-03T04:05:06.000Z","versions":{}}"#;
    let headers = decode(&encode(corgi, None).unwrap()).unwrap().headers;
    assert_eq!(
        headers.modified.as_deref(),
        Some("2021-02-03T04:05:06.000Z")
    );
    assert_eq!(headers.etag, None);
    assert!(encode(b"not json", None).is_err());
}

#[test]
fn damaged_or_foreign_files_read_as_missing() {
    for good in [encode(SERVED, Some("x")).unwrap(), BY_PNPM.to_vec()] {
        assert!(decode(&good).is_some());
        for cut in [0, 5, 20, good.len() / 2, good.len() - 1] {
            assert!(decode(&good[..cut]).is_none(), "cut at {cut}");
        }
        let mut flipped = good.clone();
        let last = flipped.len() - 3;
        flipped[last] = b'{';
        assert!(decode(&flipped).is_none());
    }
    assert!(decode(b"pacquet-meta-v1 2 2\n{}{}").is_none());
    assert!(decode(b"pnpm-meta-v1 99999999999 2\n{}{}").is_none());
    assert!(decode(b"[1]\n{}").is_none());
}

#[test]
fn headers_are_read_without_the_versions() {
    let dir = tempfile::tempdir().unwrap();
    for (name, etag) in [("short", "e".to_string()), ("long", "e".repeat(5000))] {
        let path = dir.path().join("a").join(format!("{name}.jsonl"));
        write(&path, &encode(SERVED, Some(&etag)).unwrap()).unwrap();
        let headers = read_headers(&path).unwrap();
        assert_eq!(headers.etag.as_deref(), Some(etag.as_str()));
        assert_eq!(
            headers.modified.as_deref(),
            Some("2020-01-01T00:00:00.000Z")
        );
    }
    let pnpm = dir.path().join("pnpm.jsonl");
    write(&pnpm, BY_PNPM).unwrap();
    assert_eq!(
        read_headers(&pnpm).unwrap().etag.as_deref(),
        Some("\"e-938\"")
    );
    assert!(read_headers(&dir.path().join("missing")).is_none());
    let leftovers: Vec<_> = fs::read_dir(dir.path().join("a")).unwrap().collect();
    assert_eq!(leftovers.len(), 2, "no temporary file is left behind");
}
