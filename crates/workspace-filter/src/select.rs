//! From selectors to the selected projects (docs/filtering.md §3).

use std::path::{Path, PathBuf};

use indexmap::IndexSet;
use pacquet_config::name_pattern::Matcher;

use crate::{
    FilterError, ProjectGraph, WorkspaceProject,
    changed::changed_projects,
    dir_glob,
    selector::{Selector, parse_selector},
};

/// One `--filter` (or `--filter-prod`) argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub selector: String,
    /// `--filter-prod`: walks follow production dependencies only.
    pub prod_only: bool,
}

/// What the selection depends on besides the projects.
#[derive(Debug, Clone)]
pub struct FilterOptions<'a> {
    /// The directory the command runs in: `./dir` and `{dir}` are
    /// relative to it.
    pub prefix: &'a Path,
    pub workspace_dir: &'a Path,
    /// `linkWorkspacePackages`.
    pub link_workspace_packages: bool,
    /// `testPattern`.
    pub test_pattern: &'a [String],
    /// `changedFilesIgnorePattern`.
    pub changed_files_ignore_pattern: &'a [String],
    /// `legacyDirFiltering`: `{dir}` selects every project under `dir`
    /// instead of being a glob.
    pub legacy_dir_filtering: bool,
}

/// The selected project directories, and the name patterns and
/// directories of selectors that matched nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub selected: Vec<PathBuf>,
    pub unmatched: Vec<String>,
}

/// Selects projects as pnpm 12 does for `filters`; no filters select
/// every project.
pub fn select_projects(
    projects: &[WorkspaceProject],
    filters: &[Filter],
    opts: &FilterOptions<'_>,
) -> Result<Selection, FilterError> {
    let selectors: Vec<Selector> = filters
        .iter()
        .map(|f| Selector {
            follow_prod_deps_only: f.prod_only,
            ..parse_selector(&f.selector, opts.prefix)
        })
        .collect();
    if selectors.is_empty() {
        return Ok(Selection {
            selected: projects.iter().map(|p| p.dir.clone()).collect(),
            unmatched: Vec::new(),
        });
    }
    let (prod, all): (Vec<&Selector>, Vec<&Selector>) =
        selectors.iter().partition(|s| s.follow_prod_deps_only);
    let mut selected: IndexSet<PathBuf> = IndexSet::new();
    let mut unmatched = Vec::new();
    for (group, prod_only) in [(prod, true), (all, false)] {
        if group.is_empty() {
            continue;
        }
        let graph = ProjectGraph::new(projects, prod_only, opts.link_workspace_packages);
        let part = filter_graph(&graph, &group, opts)?;
        selected.extend(part.selected);
        unmatched.extend(part.unmatched);
    }
    Ok(Selection {
        selected: selected.into_iter().collect(),
        unmatched,
    })
}

/// Inclusions minus exclusions over one graph; no inclusion means every
/// project.
fn filter_graph(
    graph: &ProjectGraph,
    selectors: &[&Selector],
    opts: &FilterOptions<'_>,
) -> Result<Selection, FilterError> {
    let (exclude, include): (Vec<&Selector>, Vec<&Selector>) =
        selectors.iter().partition(|s| s.exclude);
    let included = if include.is_empty() {
        Walk {
            picked: (0..graph.dirs.len()).collect(),
            unmatched: Vec::new(),
        }
    } else {
        walk_selectors(graph, &include, opts)?
    };
    let excluded = walk_selectors(graph, &exclude, opts)?;
    let mut unmatched = included.unmatched;
    unmatched.extend(excluded.unmatched);
    Ok(Selection {
        selected: included
            .picked
            .into_iter()
            .filter(|i| !excluded.picked.contains(i))
            .map(|i| graph.dirs[i].clone())
            .collect(),
        unmatched,
    })
}

struct Walk {
    picked: IndexSet<usize>,
    unmatched: Vec<String>,
}

/// The union of what each selector selects, in pnpm's order: projects
/// reached through dependencies, through dependents, dependents'
/// dependencies, then the projects picked directly.
fn walk_selectors(
    graph: &ProjectGraph,
    selectors: &[&Selector],
    opts: &FilterOptions<'_>,
) -> Result<Walk, FilterError> {
    let dependents = selectors
        .iter()
        .any(|s| s.include_dependents)
        .then(|| graph.dependents());
    let reverse = dependents.as_deref().unwrap_or(&[]);
    let mut state = WalkState::default();
    let mut unmatched = Vec::new();
    for selector in selectors {
        let mut entries: Option<Vec<usize>> = None;
        if let Some(since) = &selector.diff {
            let workspace = selector.parent_dir.as_deref().unwrap_or(opts.workspace_dir);
            let changed = changed_projects(
                &graph.dirs,
                since,
                workspace,
                opts.test_pattern,
                opts.changed_files_ignore_pattern,
            )?;
            // Projects whose only changes are tests: selected with their
            // dependencies as asked, never with their dependents.
            let tests_only: Vec<usize> = indices(graph, &changed.tests_only);
            let flags = Flags {
                include_dependents: false,
                ..Flags::of(selector)
            };
            state.select(flags, &tests_only, &graph.edges, reverse);
            entries = Some(indices(graph, &changed.sources));
        } else if let Some(dir) = &selector.parent_dir {
            entries = Some(by_dir(graph, dir, opts.legacy_dir_filtering));
        }
        if let Some(pattern) = &selector.name_pattern {
            let candidates = entries.unwrap_or_else(|| (0..graph.dirs.len()).collect());
            entries = Some(by_name(graph, &candidates, pattern));
        }
        let Some(entries) = entries else {
            return Err(FilterError::UnsupportedSelector {
                selector: format!("{selector:?}"),
            });
        };
        if entries.is_empty() {
            unmatched.extend(selector.name_pattern.clone());
            unmatched.extend(
                selector
                    .parent_dir
                    .as_ref()
                    .map(|d| d.display().to_string()),
            );
        }
        state.select(Flags::of(selector), &entries, &graph.edges, reverse);
    }
    Ok(Walk {
        picked: state.into_picked(),
        unmatched,
    })
}

fn indices(graph: &ProjectGraph, dirs: &[PathBuf]) -> Vec<usize> {
    dirs.iter()
        .filter_map(|d| graph.dirs.iter().position(|g| g == d))
        .collect()
}

fn by_dir(graph: &ProjectGraph, dir: &Path, legacy: bool) -> Vec<usize> {
    let pattern = dir.to_string_lossy();
    (0..graph.dirs.len())
        .filter(|&i| {
            let project = &graph.dirs[i];
            if legacy {
                project.starts_with(dir)
            } else {
                dir_glob::is_match(&project.to_string_lossy(), &pattern)
            }
        })
        .collect()
}

/// Projects among `candidates` whose name matches; a bare name that
/// matches none falls back to `@*/<name>` when exactly one project has it.
fn by_name(graph: &ProjectGraph, candidates: &[usize], pattern: &str) -> Vec<usize> {
    let matcher = Matcher::new(&[pattern.to_owned()]);
    let found: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| {
            graph.names[i]
                .as_deref()
                .is_some_and(|n| matcher.matches(n))
        })
        .collect();
    if found.is_empty() && !pattern.starts_with('@') && !pattern.contains('/') {
        let scoped = by_name(graph, candidates, &format!("@*/{pattern}"));
        return if scoped.len() == 1 {
            scoped
        } else {
            Vec::new()
        };
    }
    found
}

#[derive(Clone, Copy)]
struct Flags {
    include_dependencies: bool,
    include_dependents: bool,
    exclude_self: bool,
}

impl Flags {
    fn of(s: &Selector) -> Self {
        Flags {
            include_dependencies: s.include_dependencies,
            include_dependents: s.include_dependents,
            exclude_self: s.exclude_self,
        }
    }
}

#[derive(Default)]
struct WalkState {
    cherry_picked: Vec<usize>,
    dependencies: IndexSet<usize>,
    dependents: IndexSet<usize>,
    dependents_dependencies: IndexSet<usize>,
}

impl WalkState {
    fn select(
        &mut self,
        flags: Flags,
        entries: &[usize],
        forward: &[Vec<usize>],
        reverse: &[Vec<usize>],
    ) {
        let include_root = !flags.exclude_self;
        if flags.include_dependencies {
            pick(forward, entries, &mut self.dependencies, include_root);
        }
        if flags.include_dependents {
            pick(reverse, entries, &mut self.dependents, include_root);
        }
        if flags.include_dependencies && flags.include_dependents {
            let found: Vec<usize> = self.dependents.iter().copied().collect();
            pick(forward, &found, &mut self.dependents_dependencies, false);
        }
        if !flags.include_dependencies && !flags.include_dependents {
            self.cherry_picked.extend_from_slice(entries);
        }
    }

    fn into_picked(self) -> IndexSet<usize> {
        let mut out = self.dependencies;
        out.extend(self.dependents);
        out.extend(self.dependents_dependencies);
        out.extend(self.cherry_picked);
        out
    }
}

/// Depth-first over `adjacency` from `from`; the starting nodes are kept
/// only with `include_root`, a node already walked is not walked again.
fn pick(
    adjacency: &[Vec<usize>],
    from: &[usize],
    walked: &mut IndexSet<usize>,
    include_root: bool,
) {
    for &node in from {
        if walked.contains(&node) {
            continue;
        }
        if include_root {
            walked.insert(node);
        }
        if let Some(next) = adjacency.get(node) {
            pick(adjacency, next, walked, true);
        }
    }
}

#[cfg(test)]
mod tests;
