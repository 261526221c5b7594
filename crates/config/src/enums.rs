//! Enumerated settings.

use std::fmt;

/// `packageImportMethod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PackageImportMethod {
    #[default]
    Auto,
    Hardlink,
    Copy,
    Clone,
    CloneOrCopy,
}

impl PackageImportMethod {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "auto" => Self::Auto,
            "hardlink" => Self::Hardlink,
            "copy" => Self::Copy,
            "clone" => Self::Clone,
            "clone-or-copy" => Self::CloneOrCopy,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Hardlink => "hardlink",
            Self::Copy => "copy",
            Self::Clone => "clone",
            Self::CloneOrCopy => "clone-or-copy",
        }
    }
}

impl fmt::Display for PackageImportMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `nodeLinker`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NodeLinker {
    #[default]
    Isolated,
    Hoisted,
    Pnp,
}

impl NodeLinker {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "isolated" => Self::Isolated,
            "hoisted" => Self::Hoisted,
            "pnp" => Self::Pnp,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Isolated => "isolated",
            Self::Hoisted => "hoisted",
            Self::Pnp => "pnp",
        }
    }
}

impl fmt::Display for NodeLinker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `hoistingLimits` (`nodeLinker: hoisted` only): how far packages may be
/// hoisted (docs/hoisted.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HoistingLimits {
    /// To the workspace root.
    #[default]
    None,
    /// No further than each workspace project.
    Workspaces,
    /// No further than each project's direct dependencies.
    Dependencies,
}

impl HoistingLimits {
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "none" => Self::None,
            "workspaces" => Self::Workspaces,
            "dependencies" => Self::Dependencies,
            _ => return None,
        })
    }
}
