//! A compact binary form of a [`Tree`]: length-prefixed strings and
//! little-endian integers, read back with every index checked, so a
//! damaged file is refused (`None`) rather than trusted. The caller keys
//! and validates the file; this is only its body.

use pacquet_lockfile::{DepPath, DependencyGroup};

use super::{Tree, TreeSlot};
use crate::{DirectDep, DirectTarget, ImporterPlan, Layout, LinkOwner, Plan, Symlink};

/// Changes whenever the layout below does.
const MAGIC: &[u8; 8] = b"PQTREE\x01\n";

/// The tree of `plan`, encoded.
pub fn encode(plan: &Plan) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 << 20);
    out.extend_from_slice(MAGIC);
    out.push(match plan.layout {
        Layout::Isolated => 0,
        Layout::Hoisted => 1,
    });
    put_len(&mut out, plan.slots.len());
    for slot in &plan.slots {
        put_str(&mut out, slot.dep_path.as_str());
        put_str(&mut out, &slot.dir_name);
        put_str(&mut out, &slot.package_dir);
    }
    put_len(&mut out, plan.dirs.len());
    for dir in &plan.dirs {
        put_str(&mut out, dir);
    }
    put_len(&mut out, plan.symlinks.len());
    for link in &plan.symlinks {
        put_str(&mut out, &link.path);
        put_str(&mut out, &link.target);
        let (tag, index) = match link.owner {
            LinkOwner::Slot(i) => (0, i),
            LinkOwner::Importer(i) => (1, i),
            LinkOwner::PrivateHoist => (2, 0),
            LinkOwner::PublicHoist => (3, 0),
        };
        out.push(tag);
        put_len(&mut out, index);
        put_len(&mut out, link.target_slot.map_or(0, |i| i + 1));
    }
    put_len(&mut out, plan.importers.len());
    for importer in &plan.importers {
        put_str(&mut out, &importer.id);
        put_str(&mut out, &importer.dir);
        put_len(&mut out, importer.direct.len());
        for dep in &importer.direct {
            put_str(&mut out, &dep.alias);
            out.push(match dep.group {
                DependencyGroup::Prod => 0,
                DependencyGroup::Dev => 1,
                DependencyGroup::Optional => 2,
            });
            match &dep.target {
                DirectTarget::Slot(i) => {
                    out.push(0);
                    put_len(&mut out, *i);
                }
                DirectTarget::Link(dir) => {
                    out.push(1);
                    put_str(&mut out, dir);
                }
            }
        }
    }
    out
}

/// The tree `bytes` encode, or `None` if they are not one [`encode`] wrote.
pub fn decode(bytes: &[u8]) -> Option<Tree> {
    let mut r = Reader { bytes };
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let layout = match r.u8()? {
        0 => Layout::Isolated,
        1 => Layout::Hoisted,
        _ => return None,
    };
    let slots = r.list(|r| {
        Some(TreeSlot {
            dep_path: DepPath::parse(r.str()?),
            dir_name: r.string()?,
            package_dir: r.string()?,
        })
    })?;
    let dirs = r.list(Reader::string)?;
    let symlinks = r.list(|r| {
        let path = r.string()?;
        let target = r.string()?;
        let tag = r.u8()?;
        let index = r.len()?;
        let owner = match tag {
            0 => LinkOwner::Slot(index),
            1 => LinkOwner::Importer(index),
            2 => LinkOwner::PrivateHoist,
            3 => LinkOwner::PublicHoist,
            _ => return None,
        };
        let target_slot = r.len()?.checked_sub(1);
        Some(Symlink {
            path,
            target,
            owner,
            target_slot,
        })
    })?;
    let importers = r.list(|r| {
        Some(ImporterPlan {
            id: r.string()?,
            dir: r.string()?,
            direct: r.list(|r| {
                let alias = r.string()?;
                let group = match r.u8()? {
                    0 => DependencyGroup::Prod,
                    1 => DependencyGroup::Dev,
                    2 => DependencyGroup::Optional,
                    _ => return None,
                };
                let target = match r.u8()? {
                    0 => DirectTarget::Slot(r.len()?),
                    1 => DirectTarget::Link(r.string()?),
                    _ => return None,
                };
                Some(DirectDep {
                    alias,
                    group,
                    target,
                })
            })?,
        })
    })?;
    if !r.bytes.is_empty() {
        return None;
    }
    let tree = Tree {
        layout,
        slots,
        dirs,
        symlinks,
        importers,
    };
    indices_in_range(&tree).then_some(tree)
}

/// Every slot and importer index points into the tree.
fn indices_in_range(tree: &Tree) -> bool {
    let slot = |i: usize| i < tree.slots.len();
    let links = tree.symlinks.iter().all(|l| {
        let owner = match l.owner {
            LinkOwner::Slot(i) => slot(i),
            LinkOwner::Importer(i) => i < tree.importers.len(),
            LinkOwner::PrivateHoist | LinkOwner::PublicHoist => true,
        };
        owner && l.target_slot.is_none_or(slot)
    });
    let direct = tree.importers.iter().all(|importer| {
        importer.direct.iter().all(|d| match d.target {
            DirectTarget::Slot(i) => slot(i),
            DirectTarget::Link(_) => true,
        })
    });
    links && direct
}

fn put_len(out: &mut Vec<u8>, n: usize) {
    // Counts and indices of a real tree are far below 2³².
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

struct Reader<'b> {
    bytes: &'b [u8],
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        let (head, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn len(&mut self) -> Option<usize> {
        let raw: [u8; 4] = self.take(4)?.try_into().ok()?;
        usize::try_from(u32::from_le_bytes(raw)).ok()
    }

    fn str(&mut self) -> Option<&'b str> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).ok()
    }

    fn string(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }

    /// A count, then that many items. The count is not trusted for the
    /// allocation: each item takes at least one byte.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.len()?;
        if n > self.bytes.len() {
            return None;
        }
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(item(self)?);
        }
        Some(items)
    }
}
