//! Importing package directories out of the CAS: 100 packages of 30 files
//! in 3 subdirectories each (alotta averages 29 files per package), by hard
//! link into a virtual store that did not exist (the warm install's loop),
//! and the same over complete directories (a repeat install's marker check).

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pacquet_cas::Cas;
use pacquet_import::{ImportMethod, ImportState, PackageFile, import_new_package, import_package};

const PACKAGES: usize = 100;
const FILES: usize = 30;

struct Blob {
    rel_path: String,
    digest: String,
}

fn fill_store(cas: &Cas) -> Vec<Vec<Blob>> {
    (0..PACKAGES)
        .map(|p| {
            (0..FILES)
                .map(|f| {
                    let rel_path = match f {
                        0 => "package.json".to_string(),
                        _ => format!("dir{}/file{f}.js", f % 3),
                    };
                    let content = format!("package {p} file {f}\n");
                    let digest = cas.write(content.as_bytes(), false).unwrap().digest;
                    Blob { rel_path, digest }
                })
                .collect()
        })
        .collect()
}

fn files<'a>(cas: &'a Cas, blobs: &'a [Blob]) -> Vec<PackageFile<'a>> {
    blobs
        .iter()
        .map(|b| PackageFile {
            rel_path: &b.rel_path,
            src: cas.file_path(&b.digest, false),
            at: cas.blob_at(&b.digest, false),
            executable: false,
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let store = tempfile::tempdir().unwrap();
    let cas = Cas::new(store.path());
    let packages = fill_store(&cas);
    let lists: Vec<Vec<PackageFile<'_>>> = packages.iter().map(|p| files(&cas, p)).collect();
    let mut group = c.benchmark_group("link");
    group.sample_size(20);
    group.bench_function(
        "hard-link 100 packages x 30 files into a new virtual store",
        |b| {
            b.iter_batched(
                || tempfile::tempdir_in(store.path()).unwrap(),
                |dest| {
                    let state = ImportState::new();
                    for (i, list) in lists.iter().enumerate() {
                        let dir = dest.path().join(format!("pkg{i}"));
                        import_new_package(&dir, list, ImportMethod::Hardlink, &state).unwrap();
                    }
                    dest
                },
                BatchSize::PerIteration,
            )
        },
    );
    let done = tempfile::tempdir_in(store.path()).unwrap();
    let state = ImportState::new();
    for (i, list) in lists.iter().enumerate() {
        import_new_package(
            &done.path().join(format!("pkg{i}")),
            list,
            ImportMethod::Hardlink,
            &state,
        )
        .unwrap();
    }
    group.bench_function("check 100 complete package directories", |b| {
        b.iter(|| {
            for (i, list) in lists.iter().enumerate() {
                let dir = done.path().join(format!("pkg{i}"));
                import_package(&dir, list, ImportMethod::Hardlink, &state).unwrap();
            }
        })
    });
    group.finish();
}

criterion_group!(link, benches);
criterion_main!(link);
