//! `written-by-pnpm.jsonl` is the abbreviated mirror pnpm 12.21 wrote
//! for `served-by-registry.json` (a full document the test registry sent
//! for an abbreviated request, with ETag `"e-938"`).

use super::*;

const BY_PNPM: &[u8] = include_bytes!("written-by-pnpm.jsonl");
const SERVED: &[u8] = include_bytes!("served-by-registry.json");

fn parts(file: &[u8]) -> (Headers, Value, Vec<u8>) {
    let newline = file.iter().position(|&b| b == b'\n').unwrap();
    let (h, i) = parse_magic(std::str::from_utf8(&file[..newline]).unwrap()).unwrap();
    let headers = serde_json::from_slice(&file[newline + 1..newline + 1 + h]).unwrap();
    let index = serde_json::from_slice(&file[newline + 1 + h..newline + 1 + h + i]).unwrap();
    (headers, index, file[newline + 1 + h + i..].to_vec())
}

#[test]
fn abbreviating_a_full_document_writes_what_pnpm_writes() {
    let ours = encode(SERVED, true, Some("\"e-938\"")).unwrap();
    let (headers, index, fragments) = parts(&ours);
    let (pnpm_headers, pnpm_index, pnpm_fragments) = parts(BY_PNPM);
    assert_eq!(headers, pnpm_headers);
    // pnpm orders `time` by hash; compared as values.
    assert_eq!(index, pnpm_index);
    assert_eq!(fragments, pnpm_fragments);
}

/// A repeated key keeps its last value, an escaped key is the key it
/// spells, unknown fields of any shape are dropped, and a version that is
/// not an object makes the document invalid, as reading each version into
/// a map did.
#[test]
fn abbreviating_reads_keys_as_a_map_would() {
    let document = br#"{"name":"a","versions":{"1.0.0":{
        "dependencies":{"x":"1"},"scripts":{"install":"node i"},"n\u0061me":"a",
        "readme":"a \"quoted\" }{","dependencies":{"y":"2"},"version":"1.0.0",
        "nested":[{"dist":1}],"dist":{"tarball":"t"}}}}"#;
    let (_, _, fragments) = parts(&encode(document, true, None).unwrap());
    assert_eq!(
        String::from_utf8(fragments).unwrap(),
        r#"{"name":"a","version":"1.0.0","dependencies":{"y":"2"},"dist":{"tarball":"t"}}"#
    );
    assert!(encode(br#"{"versions":{"1.0.0":"1.0.0"}}"#, true, None).is_err());
    assert!(encode(br#"{"versions":{"1.0.0":{"name":}}}"#, true, None).is_err());
}

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
fn a_full_document_keeps_every_field_of_each_version() {
    let file = encode(SERVED, false, None).unwrap();
    let doc: Value = serde_json::from_slice(&decode(&file).unwrap().document).unwrap();
    let served: Value = serde_json::from_slice(SERVED).unwrap();
    assert_eq!(doc["versions"], served["versions"]);
    assert_eq!(doc["time"], served["time"]);
    assert_eq!(decode(&file).unwrap().headers.etag, None);
}

#[test]
fn damaged_or_foreign_files_read_as_missing() {
    let good = encode(SERVED, false, Some("x")).unwrap();
    assert!(decode(&good).is_some());
    for cut in [0, 5, 20, good.len() / 2, good.len() - 1] {
        assert!(decode(&good[..cut]).is_none(), "cut at {cut}");
    }
    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] = b'{';
    assert!(decode(&flipped).is_none());
    assert!(decode(b"pacquet-meta-v1 2 2\n{}{}").is_none());
    assert!(decode(b"pnpm-meta-v1 99999999999 2\n{}{}").is_none());
    assert!(decode(b"[1]\n{}").is_none());
    assert!(decode(b"{\"etag\":\"x\"}\n{\"name\":").is_none());
}

#[test]
fn headers_are_read_without_the_versions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b.jsonl");
    let long_etag = "e".repeat(5000);
    write(&path, &encode(SERVED, false, Some(&long_etag)).unwrap()).unwrap();
    let headers = read_headers(&path).unwrap();
    assert_eq!(headers.etag.as_deref(), Some(long_etag.as_str()));
    assert_eq!(
        headers.modified.as_deref(),
        Some("2020-01-01T00:00:00.000Z")
    );
    assert!(read_headers(&dir.path().join("missing")).is_none());
    let leftovers: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
}

#[test]
fn the_line_delimited_form_reads_as_its_document() {
    let mut file = br#"{"etag":"\"e-1\"","modified":"2020-01-01T00:00:00.000Z"}"#.to_vec();
    file.push(b'\n');
    file.extend_from_slice(SERVED);
    let mirrored = decode(&file).unwrap();
    assert_eq!(mirrored.document, SERVED);
    assert_eq!(mirrored.headers.etag.as_deref(), Some("\"e-1\""));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.jsonl");
    write(&path, &file).unwrap();
    let headers = read_headers(&path).unwrap();
    assert_eq!(
        headers.modified.as_deref(),
        Some("2020-01-01T00:00:00.000Z")
    );
}

/// A file written before `since` is not read; one written at or after it
/// is, whole.
#[test]
fn files_are_read_only_when_written_since() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    let file = encode(SERVED, true, Some("\"e\"")).unwrap();
    write(&path, &file).unwrap();
    let at = |ms: u64| std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    std::fs::File::options()
        .append(true)
        .open(&path)
        .unwrap()
        .set_modified(at(1_700_000_000_000))
        .unwrap();
    assert!(read_file_since(&path, 1_700_000_000_001).is_none());
    let kept = read_file_since(&path, 1_700_000_000_000).expect("written since");
    assert!(matches!(kept, KeptFile::Indexed(ref k) if *k.file == file[..]));
    assert!(read_file_since(&dir.path().join("missing.json"), 0).is_none());
}

#[test]
fn files_are_mapped_whatever_their_size_and_empty_ones_read() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.json");
    std::fs::write(&small, b"{}").unwrap();
    let bytes = FileBytes::open(&small).unwrap();
    assert!(matches!(bytes, FileBytes::Mapped(_)));
    assert_eq!(&*bytes, b"{}");
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, b"").unwrap();
    let bytes = FileBytes::open(&empty).unwrap();
    assert!(bytes.is_empty());
    assert!(FileBytes::open(&dir.path().join("missing.json")).is_err());
    // A small kept file reads back through its mapping.
    let kept = dir.path().join("kept.json");
    let file = encode(SERVED, true, Some("\"e\"")).unwrap();
    write(&kept, &file).unwrap();
    assert!(matches!(read_file(&kept), Some(KeptFile::Indexed(ref k)) if *k.file == file[..]));
}

/// Version names are found in the file where it writes them plainly, and
/// unescaped where it escapes them; both read back in the index's order.
#[test]
fn version_names_read_borrowed_or_unescaped() {
    let index = r#"{"name":"a","distTags":{"latest":"1.0.1"},"versions":[["1.0.0",0,2],["1.0.\u0031",2,13]]}"#;
    let mut file = format!("{MAGIC} 2 {}\n{{}}{index}", index.len()).into_bytes();
    file.extend_from_slice(br#"{}{"version":1}"#);
    let Some(KeptFile::Indexed(kept)) = decode_file(FileBytes::Read(file.clone())) else {
        panic!("an indexed file");
    };
    let names: Vec<&str> = kept
        .versions
        .iter()
        .map(|(v, _)| kept.version_name(v))
        .collect();
    assert_eq!(names, ["1.0.0", "1.0.1"]);
    assert!(matches!(kept.versions[0].0, VersionName::At(_)));
    assert!(matches!(kept.versions[1].0, VersionName::Owned(_)));
    assert_eq!(&kept.file[kept.versions[1].1.clone()], br#"{"version":1}"#);
    let document: Value = serde_json::from_slice(&kept.to_document().unwrap()).unwrap();
    assert_eq!(document["versions"]["1.0.1"]["version"], 1);
    // A fragment past the end of the file: damaged.
    file.truncate(file.len() - 1);
    assert!(decode_file(FileBytes::Read(file)).is_none());
    // A list that is not one of [name, offset, length]: damaged.
    for versions in [
        r#"{"1.0.0":[0,2]}"#,
        r#"[["1.0.0",0]]"#,
        r#"[["1.0.0",-1,2]]"#,
    ] {
        let index = format!(r#"{{"name":"a","versions":{versions}}}"#);
        let mut file = format!("{MAGIC} 2 {}\n{{}}{index}", index.len()).into_bytes();
        file.extend_from_slice(b"{}");
        assert!(decode_file(FileBytes::Read(file)).is_none(), "{versions}");
    }
}

#[test]
fn the_index_ends_where_the_first_version_starts() {
    let (_, _, fragments) = parts(BY_PNPM);
    assert_eq!(index_end(BY_PNPM), Some(BY_PNPM.len() - fragments.len()));
    let ours = encode(SERVED, true, None).unwrap();
    let (_, _, fragments) = parts(&ours);
    assert_eq!(index_end(&ours), Some(ours.len() - fragments.len()));
    let end = index_end(BY_PNPM).unwrap();
    assert_eq!(
        index_end(&BY_PNPM[..end]),
        Some(end),
        "no versions' bytes needed"
    );
    assert_eq!(index_end(&BY_PNPM[..end - 1]), None, "cut inside the index");
    assert_eq!(index_end(b"{\"etag\":\"e\"}\n{\"name\":\"a\"}"), None);
    assert_eq!(
        index_end(b"pnpm-meta-v1 1 99999999999999999999999\n{}"),
        None
    );
    assert_eq!(index_end(b""), None);
}
