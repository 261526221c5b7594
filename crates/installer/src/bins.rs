//! `.bin` directories (docs/layout.md §5): one per slot whose dependencies (or
//! itself) have bins, `<virtualStoreDir>/node_modules/.bin` for privately
//! hoisted packages, and `<project>/node_modules/.bin` for direct and
//! publicly hoisted dependencies. Written in parallel, one directory per task.

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use pacquet_bins::{BinSource, link_bins, link_bins_at};
use rayon::prelude::*;
use serde_json::Value;

use pacquet_config::Config;
use pacquet_planner::{
    DirectTarget, FetchSource, Layout, LinkOwner, Plan, PlanOptions, layout::join,
};

use crate::{InstallError, lexical::normalize};

/// One package offering bins to a directory.
struct Offer {
    package_name: String,
    package_dir: PathBuf,
    manifest: Value,
    direct: bool,
    node_path: Vec<PathBuf>,
    symlink: bool,
    /// See [`BinSource::real_dir`].
    real_dir: Option<PathBuf>,
}

impl Offer {
    fn source(&self) -> BinSource<'_> {
        BinSource {
            package_name: &self.package_name,
            package_dir: &self.package_dir,
            manifest: &self.manifest,
            direct: self.direct,
            node_path: self.node_path.clone(),
            symlink: self.symlink,
            real_dir: self.real_dir.as_deref(),
            project: None,
        }
    }
}

/// How `.bin` entries are written: the settings pnpm 12 reads for them.
#[derive(Debug, Clone, Copy)]
pub struct BinStyle {
    /// `preferSymlinkedExecutables` (default: on in the hoisted layout):
    /// symlinks to the bin files instead of shims.
    pub symlinks: bool,
    /// Shims carry `NODE_PATH` (`extendNodePath`; off with `symlinks` or
    /// without hoisting).
    pub extend_node_path: bool,
    /// `autoInstallPeers`: the bins of auto-installed peers are linked.
    pub auto_install_peers: bool,
    /// A `modulesDir` not named `node_modules`, which Node.js would not
    /// search: a project's shims put it first on `NODE_PATH`, followed by
    /// the package's own directories even with hoisting off (checked with
    /// pnpm 12.21, docs/layout.md §6).
    pub modules_dir_on_node_path: bool,
}

impl BinStyle {
    pub fn from_config(config: &Config) -> Self {
        let symlinks = config.symlinked_executables;
        BinStyle {
            symlinks,
            // With symlinked bins, the shims pnpm 12 still writes (for
            // linked projects) carry no `NODE_PATH` either; nor does any
            // shim with hoisting off (`hoist: false`, checked with 12.21).
            extend_node_path: config.extend_node_path
                && !symlinks
                && !config.hoist_pattern.is_empty(),
            auto_install_peers: config.auto_install_peers,
            modules_dir_on_node_path: config.extend_node_path
                && !symlinks
                && config.modules_dir != "node_modules",
        }
    }
}

/// Per slot: whether `.bin` linking reads its manifest. It does for
/// packages with commands (`hasBin`) and for direct dependencies, whose
/// peers a project's `.bin` gets (`Bins::add_peer_offers`); a package
/// completed without its row needs no manifest otherwise.
pub fn manifest_read(plan: &Plan) -> Vec<bool> {
    let mut read: Vec<bool> = plan.slots.iter().map(|s| s.has_bin).collect();
    for dep in plan.importers.iter().flat_map(|p| &p.direct) {
        if let DirectTarget::Slot(i) = dep.target {
            read[i] = true;
        }
    }
    read
}

/// Links every `.bin` directory the plan needs, from the manifests the
/// imports recorded.
pub fn link_all_bins(
    root: &Path,
    plan: &Plan,
    opts: &PlanOptions<'_>,
    manifests: &[OnceLock<Value>],
    style: BinStyle,
    settled: Option<&[bool]>,
) -> Result<(), InstallError> {
    if plan.layout == Layout::Hoisted {
        return link_hoisted_bins(root, plan, opts, manifests, style);
    }
    let bins = Bins {
        root,
        plan,
        opts,
        manifests,
        settled,
        vsd_modules: root.join(&opts.virtual_store_dir).join("node_modules"),
        slots_dir: match &opts.global_virtual_store {
            // As pnpm 12 names them in shims: the store's own path.
            Some(gvs) => PathBuf::from(&gvs.configured),
            None => root.join(&opts.virtual_store_dir),
        },
        style,
    };
    // Shims name the global virtual store's directories as pnpm 12.21 does,
    // absolute (docs/layout.md §16.3).
    let global = opts.global_virtual_store.is_some();
    let mut owners = bins.offers_by_owner();
    bins.add_peer_offers(&mut owners.importers);
    bins.bin_dirs(owners)
        .par_iter()
        .try_for_each(|(dir, named, offers)| {
            let sources: Vec<BinSource<'_>> = offers
                .iter()
                .map(|o| BinSource {
                    project: global.then_some(root),
                    ..o.source()
                })
                .collect();
            link_bins_at(dir, named, &sources)?;
            Ok::<(), InstallError>(())
        })
}

/// A package placed in a `node_modules`, offering its commands there.
fn placed_source<'a>(
    (package_dir, manifest, name, _): &'a (PathBuf, &'a Value, &'a str, bool),
    symlink: bool,
) -> BinSource<'a> {
    BinSource {
        package_name: name,
        package_dir,
        manifest,
        direct: false,
        node_path: Vec::new(),
        symlink,
        real_dir: None,
        project: None,
    }
}

/// `(node_modules, slot)` of each project's direct dependencies placed in
/// the project's own `node_modules` (the root's for the root project):
/// pnpm 12 links their commands there a second time, so they win a command
/// name another package placed there also offers (react-hook-form:
/// `playwright` of `@playwright/test` over the `playwright` package's).
fn placed_direct_deps<'p>(plan: &'p Plan, opts: &PlanOptions<'_>) -> HashSet<(&'p str, usize)> {
    let mut out = HashSet::new();
    for importer in &plan.importers {
        let modules = join(&importer.dir, &opts.modules_dir);
        for dep in &importer.direct {
            let DirectTarget::Slot(i) = dep.target else {
                continue;
            };
            let package_dir = plan.slots[i].package_dir.as_str();
            let placed_here = package_dir
                .strip_prefix(modules.as_str())
                .is_some_and(|rest| rest.strip_prefix('/') == Some(dep.alias.as_str()));
            if placed_here {
                out.insert((&package_dir[..modules.len()], i));
            }
        }
    }
    out
}

/// The directories installed as `file:` copies: in the hoisted layout,
/// pnpm 12 writes the bins of a `link:` to one of them in the [`BinStyle`],
/// and shims otherwise (docs/hoisted.md §5). In the isolated layout such
/// bins get shims: pnpm races there (docs/layout.md §6).
fn copied_dirs(root: &Path, plan: &Plan) -> HashSet<PathBuf> {
    plan.slots
        .iter()
        .filter_map(|slot| match &slot.fetch {
            FetchSource::Directory { path } => Some(normalize(&root.join(path))),
            _ => None,
        })
        .collect()
}

/// The hoisted layout (docs/hoisted.md §5): each `node_modules` gets the
/// commands of the packages placed in it (symlinks by default); a
/// project's `.bin` also gets the commands of its `link:` dependencies.
/// No shim carries `NODE_PATH`.
fn link_hoisted_bins(
    root: &Path,
    plan: &Plan,
    opts: &PlanOptions<'_>,
    manifests: &[OnceLock<Value>],
    style: BinStyle,
) -> Result<(), InstallError> {
    let direct = placed_direct_deps(plan, opts);
    let placed = plan.bin_dirs.par_iter().try_for_each(|dir| {
        let offers: Vec<(PathBuf, &Value, &str, bool)> = dir
            .slots
            .iter()
            .filter(|&&i| plan.slots[i].has_bin)
            .filter_map(|&i| {
                let slot = &plan.slots[i];
                let manifest = manifests[i].get()?;
                let is_direct = direct.contains(&(dir.modules_dir.as_str(), i));
                Some((
                    root.join(&slot.package_dir),
                    manifest,
                    slot.name(),
                    is_direct,
                ))
            })
            .collect();
        let source = |o| placed_source(o, style.symlinks);
        let bin_dir = root.join(&dir.modules_dir).join(".bin");
        let sources: Vec<BinSource<'_>> = offers.iter().map(source).collect();
        link_bins(&bin_dir, &sources)?;
        // pnpm 12 then links the project's own direct dependencies again,
        // so theirs win; the first pass's winners keep their exec bits.
        let direct: Vec<BinSource<'_>> = offers.iter().filter(|o| o.3).map(source).collect();
        if !direct.is_empty() && direct.len() < sources.len() {
            link_bins(&bin_dir, &direct)?;
        }
        Ok::<(), InstallError>(())
    });
    placed?;
    // A package's bundled dependencies' commands go into its own
    // `node_modules/.bin` (pnpm 12.21: npm's, symlinked).
    plan.slots
        .par_iter()
        .filter(|slot| slot.bundles)
        .try_for_each(|slot| {
            let modules = root.join(&slot.package_dir).join("node_modules");
            let bundled = bundled_with_bins(&modules);
            let offers: Vec<(PathBuf, &Value, &str, bool)> = bundled
                .iter()
                .map(|(name, manifest)| {
                    let package_name = manifest.get("name").and_then(Value::as_str);
                    (
                        modules.join(name),
                        manifest,
                        package_name.unwrap_or(name),
                        false,
                    )
                })
                .collect();
            if offers.is_empty() {
                return Ok(());
            }
            let sources: Vec<BinSource<'_>> = offers
                .iter()
                .map(|o| placed_source(o, style.symlinks))
                .collect();
            link_bins(&modules.join(".bin"), &sources)?;
            Ok::<(), InstallError>(())
        })?;
    let copied = copied_dirs(root, plan);
    plan.importers
        .par_iter()
        .enumerate()
        .try_for_each(|(k, importer)| {
            let offers: Vec<Offer> = plan
                .symlinks
                .iter()
                // Workspace projects linked into the root count as the root's.
                .filter(|l| {
                    l.owner == LinkOwner::Importer(k)
                        || (importer.id == "." && l.owner == LinkOwner::PrivateHoist)
                })
                .filter_map(|l| {
                    let mut offer =
                        linked_project_offer(root, &l.path, &l.target, Path::new(""), false)?;
                    offer.symlink = style.symlinks
                        && (copied.contains(&offer.package_dir) || runs_as_is(&offer));
                    Some(offer)
                })
                .collect();
            if offers.is_empty() {
                return Ok(());
            }
            // Offers of linked projects carry no `NODE_PATH` here.
            let sources: Vec<BinSource<'_>> = offers.iter().map(Offer::source).collect();
            let modules = join(&importer.dir, &opts.modules_dir);
            link_bins(&root.join(modules).join(".bin"), &sources)?;
            Ok(())
        })
}

/// What deciding the bin directories reads.
struct Bins<'a> {
    root: &'a Path,
    plan: &'a Plan,
    opts: &'a PlanOptions<'a>,
    manifests: &'a [OnceLock<Value>],
    /// Slots whose `.bin` is left as it is: global slots already made, and
    /// slots an earlier install linked exactly as this plan does.
    settled: Option<&'a [bool]>,
    /// `<virtualStoreDir>/node_modules`, last on every shim's `NODE_PATH`
    /// (but those in global slots).
    vsd_modules: PathBuf,
    /// Where the slots are: `<virtualStoreDir>` or the global virtual store.
    slots_dir: PathBuf,
    style: BinStyle,
}

/// Offers per `node_modules` that receives them.
struct Owners {
    slots: Vec<Vec<Offer>>,
    importers: Vec<Vec<Offer>>,
    private: Vec<Offer>,
}

impl Bins<'_> {
    /// Slot `i`'s bins, if it has any and its manifest is known.
    fn slot_offer(&self, i: usize, direct: bool) -> Option<Offer> {
        let slot = &self.plan.slots[i];
        if !slot.has_bin {
            return None;
        }
        let manifest = self.manifests[i].get()?.clone();
        // Shims name where the package ends up; a global slot may still be
        // staged elsewhere, where its files are read.
        let package_dir = self.final_dir(i);
        let slot_modules = self.slots_dir.join(&slot.dir_name).join("node_modules");
        let staged = self.root.join(&slot.package_dir);
        let real_dir = (self.opts.global_virtual_store.is_some()
            && normalize(&staged) != normalize(&package_dir))
        .then_some(staged);
        let node_path = if self.style.extend_node_path {
            vec![
                package_dir.join("node_modules"),
                slot_modules,
                self.vsd_modules.clone(),
            ]
        } else if self.style.modules_dir_on_node_path {
            // Kept for projects' shims only ([`Self::bin_dirs`]).
            vec![package_dir.join("node_modules"), slot_modules]
        } else {
            Vec::new()
        };
        Some(Offer {
            package_name: slot.name().to_owned(),
            package_dir,
            manifest,
            direct,
            node_path,
            symlink: self.style.symlinks,
            real_dir,
        })
    }

    /// The bins of the packages slot `i`'s package ships in its own
    /// `node_modules` (`bundledDependencies`): they are no lockfile
    /// dependency, so their manifests are read from disk, and they go into
    /// the package's `.bin` with its own (pnpm 12.21: npm's `semver`,
    /// `node-gyp`, … in `npm/node_modules/.bin`).
    fn bundled_offers(&self, i: usize) -> Vec<Offer> {
        let slot = &self.plan.slots[i];
        if !slot.bundles {
            return Vec::new();
        }
        let staged = self.root.join(&slot.package_dir).join("node_modules");
        let final_modules = self.final_dir(i).join("node_modules");
        let mut offers = Vec::new();
        for (name, manifest) in bundled_with_bins(&staged) {
            let package_dir = final_modules.join(&name);
            let node_path = if self.style.extend_node_path {
                vec![
                    package_dir.join("node_modules"),
                    final_modules.clone(),
                    self.vsd_modules.clone(),
                ]
            } else {
                Vec::new()
            };
            let real_dir =
                (normalize(&staged) != normalize(&final_modules)).then(|| staged.join(&name));
            offers.push(Offer {
                package_name: manifest
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or(&name)
                    .to_owned(),
                package_dir,
                manifest,
                direct: false,
                node_path,
                symlink: self.style.symlinks,
                real_dir,
            });
        }
        offers
    }

    /// Where slot `i`'s package ends up (not where a staged global slot is
    /// being made).
    fn final_dir(&self, i: usize) -> PathBuf {
        let slot = &self.plan.slots[i];
        self.slots_dir
            .join(&slot.dir_name)
            .join("node_modules")
            .join(slot.name())
    }

    /// Every symlink's target offers its bins to the link's `node_modules`.
    fn offers_by_owner(&self) -> Owners {
        let plan = self.plan;
        let mut owners = Owners {
            slots: (0..plan.slots.len()).map(|_| Vec::new()).collect(),
            importers: (0..plan.importers.len()).map(|_| Vec::new()).collect(),
            private: Vec::new(),
        };
        let root_importer = plan.importers.iter().position(|i| i.id == ".");
        let settled = |s: usize| self.settled.is_some_and(|settled| settled[s]);
        for (s, t, sibling) in &plan.bin_only_deps {
            if settled(*s) {
                continue;
            }
            // Targets seen through the sibling pnpm does not link.
            owners.slots[*s].extend(self.slot_offer(*t, false).map(|mut offer| {
                let named = std::mem::replace(&mut offer.package_dir, self.root.join(sibling));
                offer.real_dir = Some(offer.real_dir.take().unwrap_or(named));
                offer
            }));
        }
        for link in &plan.symlinks {
            if let LinkOwner::Slot(s) = link.owner
                && settled(s)
            {
                continue;
            }
            let offer = match (link.target_slot, link.owner) {
                // In a global slot, a dependency's commands are named through
                // the slot's link to it (pnpm 12.21).
                (Some(t), LinkOwner::Slot(s)) if self.opts.global_virtual_store.is_some() => {
                    self.slot_offer(t, false).map(|mut offer| {
                        let alias = link
                            .path
                            .rsplit_once("/node_modules/")
                            .map_or("", |(_, a)| a);
                        let slot = &self.plan.slots[s];
                        let named = self.slots_dir.join(&slot.dir_name).join("node_modules");
                        if !alias.is_empty() {
                            let named = named.join(alias);
                            let real = std::mem::replace(&mut offer.package_dir, named);
                            offer.real_dir = Some(offer.real_dir.take().unwrap_or(real));
                        }
                        offer
                    })
                }
                // With the global virtual store pnpm 12.21 links no commands
                // of a patched package hoisted into the hidden hoisting
                // directory when this install makes its slot; found made,
                // or publicly hoisted, or direct, it does (checked with a
                // patched `@pq/deep-leaf`; tailwindcss's patched
                // `@napi-rs/cli`, benchmarks/compat-real).
                (Some(t), LinkOwner::PrivateHoist)
                    if self.opts.global_virtual_store.is_some()
                        && self.plan.slots[t].patch.is_some()
                        && !settled(t) =>
                {
                    None
                }
                (Some(t), owner) => self.slot_offer(t, matches!(owner, LinkOwner::Importer(_))),
                // pnpm links no bins of workspace projects hoisted into the
                // virtual store (checked with the workspace fixture), nor
                // into a package's own `node_modules/.bin` when a dependency
                // of it is a workspace project (vite's plugins peer-depending
                // on `vite@packages+vite`, benchmarks/compat-real).
                (None, LinkOwner::PrivateHoist | LinkOwner::Slot(_)) => None,
                (None, _) => linked_project_offer(
                    self.root,
                    &link.path,
                    &link.target,
                    &self.vsd_modules,
                    self.style.extend_node_path,
                )
                .map(|mut offer| {
                    offer.symlink = self.style.symlinks && runs_as_is(&offer);
                    offer
                }),
            };
            let Some(offer) = offer else { continue };
            match link.owner {
                LinkOwner::Slot(s) => owners.slots[s].push(offer),
                LinkOwner::Importer(k) => owners.importers[k].push(offer),
                LinkOwner::PrivateHoist => owners.private.push(offer),
                LinkOwner::PublicHoist => {
                    if let Some(k) = root_importer {
                        owners.importers[k].push(offer);
                    }
                }
            }
        }
        owners
    }

    /// pnpm 12 also links, into a project's `.bin`, the bins of the peers
    /// its direct dependencies declare and got from the graph rather than
    /// from the project (auto-installed peers), though they are not linked
    /// in its `node_modules` (alotta: `webpack`, a peer of `babel-loader`).
    /// Optional peers are never auto-installed, so their bins are not
    /// linked even when the graph satisfies them (`jiti`, an optional peer
    /// of eslint 9, next to tailwindcss 3). With `autoInstallPeers: false`
    /// none is (vite's `docs` gets no `tsc` from vue-tsc's peer,
    /// benchmarks/compat-real).
    fn add_peer_offers(&self, importer_offers: &mut [Vec<Offer>]) {
        if !self.style.auto_install_peers {
            return;
        }
        for (k, importer) in self.plan.importers.iter().enumerate() {
            let direct: HashSet<&str> = importer.direct.iter().map(|d| d.alias.as_str()).collect();
            let mut offered = HashSet::new();
            for dep in &importer.direct {
                let DirectTarget::Slot(i) = dep.target else {
                    continue;
                };
                let manifest = self.manifests[i].get();
                let Some(peers) = manifest
                    .and_then(|m| m.get("peerDependencies"))
                    .and_then(Value::as_object)
                else {
                    continue;
                };
                for link in self.plan.symlinks.iter() {
                    if link.owner != LinkOwner::Slot(i) {
                        continue;
                    }
                    let alias = link
                        .path
                        .rsplit_once("/node_modules/")
                        .map_or("", |(_, a)| a);
                    if !peers.contains_key(alias)
                        || direct.contains(alias)
                        || is_optional_peer(manifest, alias)
                    {
                        continue;
                    }
                    if let Some(t) = link.target_slot
                        && offered.insert(t)
                        && let Some(offer) = self.slot_offer(t, false)
                    {
                        importer_offers[k].push(offer);
                    }
                }
            }
        }
    }

    /// `(bin dir, the place its shims name, offers)` in a stable order:
    /// slots (each with its own bins), the hidden hoisting dir, then the
    /// importers. The first two differ for a staged global slot.
    fn bin_dirs(&self, owners: Owners) -> Vec<(PathBuf, PathBuf, Vec<Offer>)> {
        let mut dirs = Vec::new();
        // Shims outside the projects' modules dirs carry `NODE_PATH` only
        // with `extendNodePath` and hoisting.
        let outside = |mut offers: Vec<Offer>| {
            if !self.style.extend_node_path {
                offers.iter_mut().for_each(|o| o.node_path.clear());
            }
            offers
        };
        let global = self.opts.global_virtual_store.is_some();
        for (i, mut offers) in owners.slots.into_iter().enumerate() {
            if self.settled.is_some_and(|s| s[i]) {
                continue;
            }
            offers.extend(self.bundled_offers(i));
            if let Some(own) = self.slot_offer(i, false) {
                offers.push(own);
            }
            // A global slot serves every project: its shims name no
            // project's hoisting directory (pnpm 12.21).
            if global {
                for offer in &mut offers {
                    offer.node_path.retain(|p| *p != self.vsd_modules);
                }
            }
            if !offers.is_empty() {
                let slot = &self.plan.slots[i];
                let package_dir = self.root.join(&slot.package_dir);
                let named = self.final_dir(i).join("node_modules/.bin");
                dirs.push((
                    package_dir.join("node_modules/.bin"),
                    named,
                    outside(offers),
                ));
            }
        }
        // Projects' shims name a global slot's files by their real path,
        // `..` resolved (pnpm 12.21 follows the link there).
        let resolved = |mut offers: Vec<Offer>| {
            if global {
                offers
                    .iter_mut()
                    .for_each(|o| o.package_dir = normalize(&o.package_dir));
            }
            offers
        };
        if !owners.private.is_empty() {
            let dir = self.vsd_modules.join(".bin");
            dirs.push((dir.clone(), dir, resolved(outside(owners.private))));
        }
        for (k, mut offers) in owners.importers.into_iter().enumerate() {
            if !offers.is_empty() {
                let modules = self
                    .root
                    .join(join(&self.plan.importers[k].dir, &self.opts.modules_dir));
                if self.style.modules_dir_on_node_path {
                    for offer in &mut offers {
                        offer.node_path.insert(0, normalize(&modules));
                    }
                }
                dirs.push((modules.join(".bin"), modules.join(".bin"), resolved(offers)));
            }
        }
        dirs
    }
}

/// The packages with commands in a package's own `node_modules`
/// (`bundledDependencies`): `(directory name, manifest)`, sorted. They are
/// no lockfile dependency, so their manifests are read from disk; dot
/// entries (`.bin`) are not packages.
fn bundled_with_bins(modules: &Path) -> Vec<(String, Value)> {
    let entries = |dir: &Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .collect()
    };
    let mut names = Vec::new();
    for name in entries(modules) {
        if name.starts_with('@') {
            names.extend(
                entries(&modules.join(&name))
                    .into_iter()
                    .map(|inner| format!("{name}/{inner}")),
            );
        } else {
            names.push(name);
        }
    }
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let bytes = std::fs::read(modules.join(&name).join("package.json")).ok()?;
            let manifest: Value = serde_json::from_slice(&bytes).ok()?;
            let has_bin =
                manifest.get("bin").is_some() || manifest.pointer("/directories/bin").is_some();
            has_bin.then_some((name, manifest))
        })
        .collect()
}

/// Whether every command of a linked project already is executable by
/// everybody (`mode & 0o111`): pnpm 12 then links it as it is, and writes a
/// shim otherwise, leaving the project's files untouched (checked with
/// modes 755, 751, 715, 711 and 111 against 700, 701, 770, 661 and 644;
/// docs/hoisted.md §5).
#[cfg(unix)]
fn runs_as_is(offer: &Offer) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let commands = pacquet_bins::bin_commands(&offer.manifest, &offer.package_dir);
    !commands.is_empty()
        && commands.iter().all(|c| {
            std::fs::metadata(&c.target).is_ok_and(|m| m.permissions().mode() & 0o111 == 0o111)
        })
}

/// Windows has no exec bits, and pnpm links no bin as a symlink there.
#[cfg(not(unix))]
fn runs_as_is(_offer: &Offer) -> bool {
    false
}

/// A workspace project or `link:` directory: its `package.json` is read from
/// disk (it is not in the store).
fn linked_project_offer(
    root: &Path,
    link_path: &str,
    target: &str,
    vsd_modules: &Path,
    extend_node_path: bool,
) -> Option<Offer> {
    let link = root.join(link_path);
    let dir = link.parent()?.join(target);
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let manifest: Value = serde_json::from_str(&text).ok()?;
    if manifest.get("bin").is_none() && manifest.pointer("/directories/bin").is_none() {
        return None;
    }
    let package_name = manifest.get("name")?.as_str()?.to_owned();
    let node_path = if extend_node_path {
        vec![vsd_modules.to_owned()]
    } else {
        Vec::new()
    };
    Some(Offer {
        package_name,
        package_dir: normalize(&dir),
        manifest,
        direct: true,
        node_path,
        symlink: false,
        real_dir: None,
    })
}

/// `peerDependenciesMeta[alias].optional` of a manifest.
fn is_optional_peer(manifest: Option<&Value>, alias: &str) -> bool {
    manifest
        .and_then(|m| m.get("peerDependenciesMeta"))
        .and_then(|meta| meta.get(alias))
        .and_then(|entry| entry.get("optional"))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}
