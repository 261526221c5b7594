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
        }
    }
}
