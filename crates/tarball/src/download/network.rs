//! The network settings applied to the HTTP client.

use reqwest::{Certificate, ClientBuilder, Identity, NoProxy, Proxy};

use crate::NetworkOptions;

/// `builder` with the proxies, trusted certificates and local address of
/// `opts`. The environment's proxies were already folded into `opts` by
/// the settings (docs/settings.md §2.2), so the client reads none itself.
pub(super) fn apply(
    mut builder: ClientBuilder,
    opts: &NetworkOptions,
) -> reqwest::Result<ClientBuilder> {
    builder = builder.no_proxy();
    let bypass = || opts.no_proxy.as_deref().and_then(NoProxy::from_string);
    if opts.no_proxy.as_deref() != Some("*") {
        if let Some(url) = &opts.https_proxy {
            builder = builder.proxy(Proxy::https(url.as_str())?.no_proxy(bypass()));
        }
        if let Some(url) = &opts.http_proxy {
            builder = builder.proxy(Proxy::http(url.as_str())?.no_proxy(bypass()));
        }
    }
    if !opts.strict_ssl {
        builder = builder.tls_danger_accept_invalid_certs(true);
    } else if opts.ca.is_empty() && opts.client_identity.is_none() {
        // reqwest's own configuration for these settings, but with the
        // system's roots read on the first handshake (`roots`).
        if let Ok(config) = super::roots::client_config() {
            builder = builder.tls_backend_preconfigured(config);
        }
    }
    if !opts.ca.is_empty() {
        // Like Node.js's `ca` option: these replace the system's roots.
        let mut certs = Vec::new();
        for pem in &opts.ca {
            certs.extend(Certificate::from_pem_bundle(pem.as_bytes())?);
        }
        builder = builder.tls_certs_only(certs);
    }
    if let Some((cert, key)) = &opts.client_identity {
        let pem = format!("{cert}\n{key}");
        builder = builder.identity(Identity::from_pem(pem.as_bytes())?);
    }
    if let Some(address) = opts.local_address {
        builder = builder.local_address(address);
    }
    Ok(builder)
}
