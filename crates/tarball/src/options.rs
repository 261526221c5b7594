use std::time::Duration;

/// Network settings, with pnpm's defaults (docs/errors.md §1).
#[derive(Debug, Clone)]
pub struct FetcherOptions {
    /// Concurrent tarball requests (`networkConcurrency`).
    pub network_concurrency: usize,
    /// Retries after the first attempt (`fetchRetries`).
    pub retries: u32,
    pub retry_factor: u32,
    pub retry_min_timeout: Duration,
    pub retry_max_timeout: Duration,
    /// Longest wait for the connection or for any read (`fetchTimeout`).
    pub fetch_timeout: Duration,
    pub user_agent: String,
    pub network: NetworkOptions,
}

/// How requests reach the registry: proxies, TLS trust, local address
/// (docs/settings.md §2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkOptions {
    /// Proxy for `https:` URLs (`httpsProxy`, `HTTPS_PROXY`).
    pub https_proxy: Option<String>,
    /// Proxy for `http:` URLs (`proxy`/`httpProxy`, `HTTP_PROXY`).
    pub http_proxy: Option<String>,
    /// Hosts reached directly (`noProxy`; `*` for all).
    pub no_proxy: Option<String>,
    /// `strictSsl`: verify certificates.
    pub strict_ssl: bool,
    /// PEM certificates trusted instead of the system's (`ca`, `cafile`).
    pub ca: Vec<String>,
    /// `localAddress`: the address requests leave from.
    pub local_address: Option<std::net::IpAddr>,
    /// `cert` and `key`: a client certificate and its key, PEM.
    pub client_identity: Option<(String, String)>,
}

impl Default for NetworkOptions {
    fn default() -> Self {
        NetworkOptions {
            https_proxy: None,
            http_proxy: None,
            no_proxy: None,
            strict_ssl: true,
            ca: Vec::new(),
            local_address: None,
            client_identity: None,
        }
    }
}

impl Default for FetcherOptions {
    fn default() -> Self {
        FetcherOptions {
            network_concurrency: 16,
            retries: 2,
            retry_factor: 10,
            retry_min_timeout: Duration::from_secs(10),
            retry_max_timeout: Duration::from_secs(60),
            fetch_timeout: Duration::from_secs(60),
            user_agent: format!("pacquet/{}", env!("CARGO_PKG_VERSION")),
            network: NetworkOptions::default(),
        }
    }
}
