//! The ordered, deduplicated set of directories an install creates.

/// Directories in creation order: every parent precedes its children.
#[derive(Debug, Default)]
pub(crate) struct DirSet {
    order: Vec<String>,
    /// foldhash: every link asks for its directory, a long string that
    /// SipHash was slow to hash.
    seen: foldhash::HashSet<String>,
}

impl DirSet {
    /// Marks `dir` (and implicitly its ancestors) as existing already.
    pub(crate) fn assume_exists(&mut self, dir: &str) {
        let mut dir = dir;
        while !dir.is_empty() && self.seen.insert(dir.to_owned()) {
            dir = parent(dir);
        }
    }

    /// Adds `dir` after any of its missing ancestors.
    pub(crate) fn add(&mut self, dir: &str) {
        if dir.is_empty() || self.seen.contains(dir) {
            return;
        }
        self.add(parent(dir));
        self.seen.insert(dir.to_owned());
        self.order.push(dir.to_owned());
    }

    /// Room for `additional` more directories.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.order.reserve(additional);
        self.seen.reserve(additional);
    }

    pub(crate) fn into_vec(self) -> Vec<String> {
        self.order
    }
}

/// `a/b/c` → `a/b`; `a` → `""`.
pub(crate) fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}
