//! Several tarballs extracted together, so that their files and the
//! tarballs' own SHA-512s share the hash lanes.
//!
//! One package rarely fills 8 lanes to the end: its longest message (often
//! the `.tgz` itself) runs on alone, and what is left when a single lane is
//! busy is finished one block at a time. Over the 1,506 tarballs of the
//! alotta mirror, one package at a time takes 640k lane steps plus 320k
//! single blocks, eight at a time 569k plus 88k; a cold alotta install's
//! user time went from 1.30 to 1.08 s (docs/store.md §7.3).

use std::cell::Cell;

use pacquet_cas::Cas;
use pacquet_store_index::PackageFilesIndex;

use super::{ExtractErrors, ExtractLimits, FileBatch, Files, extract, read_whole, row};
use crate::buffers::{self, KEEP_BUFFER};
use crate::inflate::{inflate_exact, whole_size};
use crate::{TarballCheck, TarballError};

/// A tarball to extract with others.
#[derive(Debug, Clone, Copy)]
pub struct GroupMember<'a> {
    pub tgz: &'a [u8],
    pub package_id: &'a str,
    /// Its integrity, checked as by [`crate::extract_checked_to_store`].
    pub check: Option<&'a TarballCheck>,
}

/// Extracts every member into `cas`, as [`crate::extract_to_store`] or
/// [`crate::extract_checked_to_store`] would one at a time, and returns
/// their rows (or errors) in order. The archives that inflate whole
/// within the thread's buffer, together, are inflated side by side and
/// hashed in one pass; the others, and any archive that turns out not to
/// read cleanly, are extracted alone afterwards, so each error is the one
/// a lone extraction reports. A member whose tarball does not match its
/// check has nothing written.
pub fn extract_group_to_store(
    cas: &Cas,
    members: &[GroupMember<'_>],
    limits: &ExtractLimits,
) -> Vec<Result<PackageFilesIndex, TarballError>> {
    let mut results: Vec<Option<Result<PackageFilesIndex, TarballError>>> =
        members.iter().map(|_| None).collect();
    let mut shared = Vec::new();
    let mut total = 0usize;
    for (i, member) in members.iter().enumerate() {
        if let Some(len) = whole_size(member.tgz, limits.max_unpacked_bytes)
            && total + len <= KEEP_BUFFER
        {
            shared.push((i, len));
            total += len;
        }
    }
    // One archive shares nothing: it goes the usual way.
    if shared.len() > 1 {
        buffers::with_thread_buffer(|buffer| {
            let mut rest = buffers::sized(buffer, total);
            let mut tars = Vec::with_capacity(shared.len());
            for &(i, len) in &shared {
                let (tar, tail) = std::mem::take(&mut rest).split_at_mut(len);
                rest = tail;
                if inflate_exact(members[i].tgz, tar) {
                    tars.push((i, &*tar));
                }
            }
            store_together(cas, members, &tars, limits, &mut results);
        });
    }
    members
        .iter()
        .zip(results)
        .map(|(member, result)| {
            result.unwrap_or_else(|| {
                extract(cas, member.tgz, member.package_id, limits, member.check)
            })
        })
        .collect()
}

/// Reads the inflated `tars` (`(member, tar)`), hashes every file and
/// checked tarball in one pass, then writes each member whose check holds.
/// A member whose archive does not read is left out (its result stays
/// `None`).
fn store_together<'t>(
    cas: &Cas,
    members: &[GroupMember<'_>],
    tars: &[(usize, &'t [u8])],
    limits: &ExtractLimits,
    results: &mut [Option<Result<PackageFilesIndex, TarballError>>],
) {
    // Whole archives never stream, so the size cap is never hit mid-read.
    let exceeded = Cell::new(false);
    let errors = |i: usize| ExtractErrors {
        package_id: members[i].package_id,
        max_unpacked_bytes: limits.max_unpacked_bytes,
        exceeded: &exceeded,
    };
    let mut read: Vec<(usize, FileBatch<'t>)> = tars
        .iter()
        .filter_map(|&(i, tar)| Some((i, read_whole(tar, limits, &errors(i)).ok()?)))
        .collect();
    let mut inputs: Vec<&[u8]> = Vec::new();
    for (i, batch) in &read {
        inputs.extend(members[*i].check.map(|_| members[*i].tgz));
        inputs.extend(batch.contents());
    }
    let digests = pacquet_sha512::digest_many(&inputs);
    drop(inputs);
    let mut next = 0;
    for (i, batch) in &mut read {
        let errors = errors(*i);
        let checked = match members[*i].check {
            Some(check) => {
                next += 1;
                check.matches(&digests[next - 1])
            }
            None => Ok(()),
        };
        let own = &digests[next..next + batch.len()];
        next += own.len();
        results[*i] = Some(checked.and_then(|()| {
            let mut files = Files::new();
            let mut package_json = None;
            let whole = 0..batch.len();
            batch.write(
                std::slice::from_ref(&whole),
                own,
                cas,
                &mut files,
                &mut package_json,
                &errors,
            )?;
            row(files, package_json, &errors)
        }));
    }
}
