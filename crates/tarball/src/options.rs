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
    /// TLS settings of particular registries (`//host/:ca` and the like).
    pub per_registry: Vec<RegistryTls>,
}

/// A registry's own TLS settings (`//host[:port]/path/:ca`, `:cafile`,
/// `:cert`, `:certfile`, `:key`, `:keyfile`): requests under `prefix` use
/// them over the global ones, as pnpm 12 merges them (docs/settings.md
/// §2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryTls {
    /// `//host[:port]/path/`.
    pub prefix: String,
    /// Replaces the global `ca` when set.
    pub ca: Option<Vec<String>>,
    /// Replaces the global `cert`/`key` when set (pnpm 12.21 keeps the
    /// global ones for a registry with only a `ca` of its own).
    pub client_identity: Option<(String, String)>,
}

impl NetworkOptions {
    /// The settings a request to `url` is made with: those of the registry
    /// whose prefix covers it (the longest), else the global ones.
    pub fn for_url(&self, url: &str) -> Option<&RegistryTls> {
        let nerf = url.split_once(':').map_or(url, |(_, rest)| rest);
        self.per_registry
            .iter()
            .filter(|r| nerf.starts_with(&r.prefix) || format!("{nerf}/") == r.prefix)
            .max_by_key(|r| r.prefix.len())
    }

    /// These options with `registry`'s TLS settings in place of the global
    /// ones.
    pub fn with_registry(&self, registry: &RegistryTls) -> NetworkOptions {
        NetworkOptions {
            ca: registry.ca.clone().unwrap_or_else(|| self.ca.clone()),
            client_identity: registry
                .client_identity
                .clone()
                .or_else(|| self.client_identity.clone()),
            per_registry: Vec::new(),
            ..self.clone()
        }
    }
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
            per_registry: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::{NetworkOptions, RegistryTls};

    fn registry(prefix: &str, ca: &str) -> RegistryTls {
        RegistryTls {
            prefix: prefix.to_owned(),
            ca: Some(vec![ca.to_owned()]),
            client_identity: None,
        }
    }

    #[test]
    fn the_longest_registry_prefix_covering_the_url_wins() {
        let opts = NetworkOptions {
            client_identity: Some(("cert".into(), "key".into())),
            per_registry: vec![
                registry("//reg.example/", "host"),
                registry("//reg.example/private/", "path"),
                registry("//reg.example:8443/", "port"),
            ],
            ..NetworkOptions::default()
        };
        let ca = |url: &str| {
            opts.for_url(url)
                .and_then(|r| r.ca.as_ref())
                .map(|c| c[0].clone())
        };
        assert_eq!(
            ca("https://reg.example/a/-/a-1.0.0.tgz").as_deref(),
            Some("host")
        );
        assert_eq!(
            ca("https://reg.example/private/a/-/a.tgz").as_deref(),
            Some("path")
        );
        assert_eq!(ca("https://reg.example:8443/a").as_deref(), Some("port"));
        assert_eq!(ca("https://other.example/a"), None);
        // Fields not set for the registry stay global.
        let merged = opts.with_registry(opts.for_url("https://reg.example/a").unwrap());
        assert_eq!(merged.ca, ["host"]);
        assert_eq!(merged.client_identity, Some(("cert".into(), "key".into())));
    }
}
