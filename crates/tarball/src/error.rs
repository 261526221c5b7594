/// Everything that can go wrong fetching or extracting a tarball. Messages
/// never contain the `authorization` value.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum TarballError {
    #[error(
        "Failed to verify the integrity of {url}: Integrity check failed.\n\tWanted: {wanted}\n\tActual: {actual}"
    )]
    #[diagnostic(
        code(ERR_PNPM_TARBALL_INTEGRITY),
        help(
            "The downloaded tarball does not match the integrity recorded in the lockfile. If you trust the new content (legitimate republish, or stale local metadata cache), run `pnpm install --update-checksums`. Otherwise treat this as a potential supply-chain issue and verify the new content first."
        )
    )]
    Integrity {
        url: String,
        wanted: String,
        actual: String,
    },

    #[error("Tarball server returned HTTP {status} for {url}")]
    #[diagnostic(code(ERR_PNPM_TARBALL_HTTP_STATUS))]
    HttpStatus { url: String, status: u16 },

    #[error("Failed to fetch {url}: {reason}")]
    #[diagnostic(code(ERR_PNPM_TARBALL_FETCH_TARBALL))]
    Fetch { url: String, reason: String },

    /// pnpm 12 reports this as any failed fetch; the help is pacquet's.
    #[error("Failed to fetch {url}: {reason}")]
    #[diagnostic(
        code(ERR_PNPM_TARBALL_FETCH_TARBALL),
        help(
            "The registry's TLS certificate is not trusted. If it is signed by a private CA, point `cafile` (or `ca`) at that CA in .npmrc; `strict-ssl=false` turns verification off."
        )
    )]
    UntrustedCertificate { url: String, reason: String },

    #[error("The integrity {integrity:?} of {package_id} is not a valid SRI string")]
    #[diagnostic(
        code(ERR_PACQUET_TARBALL_BAD_INTEGRITY),
        help("Fix or remove the `integrity` field of this package in the lockfile.")
    )]
    BadIntegrity {
        package_id: String,
        integrity: String,
    },

    #[error("Failed to create the HTTP client: {reason}")]
    #[diagnostic(code(ERR_PACQUET_HTTP_CLIENT))]
    Client { reason: String },

    #[error("Refusing to extract the tarball of {package_id}: entry {entry:?} {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_TARBALL_UNSAFE_ENTRY),
        help(
            "The tarball may be malicious; pacquet only extracts regular files and directories inside the package."
        )
    )]
    UnsafeEntry {
        package_id: String,
        entry: String,
        reason: &'static str,
    },

    #[error("Refusing to extract the tarball of {package_id}: {what} exceeds the limit of {limit}")]
    #[diagnostic(
        code(ERR_PACQUET_TARBALL_TOO_LARGE),
        help("The tarball may be a decompression bomb.")
    )]
    TooLarge {
        package_id: String,
        what: &'static str,
        limit: u64,
    },

    #[error("The tarball of {package_id} is corrupt: {reason}")]
    #[diagnostic(
        code(ERR_PACQUET_TARBALL_CORRUPT),
        help("Retry the install; if it persists, the registry serves a broken tarball.")
    )]
    Corrupt { package_id: String, reason: String },

    #[error("Failed to write the files of {package_id} into the store")]
    #[diagnostic(code(ERR_PACQUET_TARBALL_STORE_WRITE))]
    Store {
        package_id: String,
        #[source]
        #[diagnostic_source]
        source: pacquet_cas::CasError,
    },
}

impl TarballError {
    /// Whether pnpm would try the download again (docs/errors.md §1): every
    /// status but 401, 403 and 404 (a 429 or 408 is retried), and no local
    /// configuration problem.
    pub fn is_retryable(&self) -> bool {
        match self {
            TarballError::HttpStatus { status, .. } => !matches!(status, 401 | 403 | 404),
            TarballError::Integrity { .. }
            | TarballError::Fetch { .. }
            | TarballError::Corrupt { .. } => true,
            _ => false,
        }
    }
}
