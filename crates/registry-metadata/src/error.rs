use std::path::PathBuf;

/// Why a document could not be had.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum MetadataError {
    #[error("Failed to resolve {name} in package mirror {}", mirror.display())]
    #[diagnostic(
        code(ERR_PNPM_NO_OFFLINE_META),
        help(
            "Run the install once online so the registry metadata is cached, or leave out --offline."
        )
    )]
    NoOfflineMeta { name: String, mirror: PathBuf },

    #[error("GET {url}: the registry answered HTTP {status}")]
    #[diagnostic(code(ERR_PNPM_META_FETCH_FAIL))]
    HttpStatus { url: String, status: u16 },

    #[error("GET {url}: {reason}")]
    #[diagnostic(code(ERR_PNPM_META_FETCH_FAIL))]
    Fetch { url: String, reason: String },

    #[error("GET {url}: {reason}")]
    #[diagnostic(
        code(ERR_PNPM_META_FETCH_FAIL),
        help(
            "The registry's TLS certificate is not trusted. If it is signed by a private CA, point `cafile` (or `ca`) at that CA in .npmrc; `strict-ssl=false` turns verification off."
        )
    )]
    UntrustedCertificate { url: String, reason: String },

    #[error("The metadata of {name} from {url} is not valid JSON: {reason}")]
    #[diagnostic(code(ERR_PNPM_META_FETCH_FAIL))]
    Invalid {
        name: String,
        url: String,
        reason: String,
    },
}
