//! The npm ini format of `.npmrc` / `auth.ini`, and which of its keys
//! pnpm 11+ still honours.

/// Parses ini text into `(key, value)` pairs in file order. Comments start
/// with `#` or `;` at the beginning of a line; whitespace around `=` is
/// trimmed; one pair of surrounding `"` or `'` quotes is removed. `[section]`
/// headers and lines without `=` are ignored.
pub fn parse_ini(text: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty()
            || line.starts_with('#')
            || line.starts_with(';')
            || line.starts_with('[')
        {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = unquote(key.trim());
        if key.is_empty() {
            continue;
        }
        entries.push((key.to_owned(), unquote(value.trim()).to_owned()));
    }
    entries
}

fn unquote(text: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner;
        }
    }
    text
}

/// What a `.npmrc` key means to pnpm 11+.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NpmrcKey {
    /// `registry` or `@scope:registry`.
    Registry,
    /// `https-proxy`, `http-proxy`, `proxy`, `no-proxy`/`noproxy`.
    Proxy,
    /// `//host/path/:<field>` (credentials and per-registry TLS).
    PerRegistry,
    /// `strict-ssl`, `ca`, `cafile`, `cert`, `key`, `local-address`.
    Network,
    /// Anything else: silently ignored by pnpm 11+.
    Ignored,
}

/// Classifies an ini key.
pub fn classify(key: &str) -> NpmrcKey {
    if key == "registry" || (key.starts_with('@') && key.ends_with(":registry")) {
        return NpmrcKey::Registry;
    }
    if key.starts_with("//") {
        return NpmrcKey::PerRegistry;
    }
    match key {
        "https-proxy" | "http-proxy" | "proxy" | "no-proxy" | "noproxy" => NpmrcKey::Proxy,
        "strict-ssl" | "ca" | "cafile" | "cert" | "key" | "local-address" => NpmrcKey::Network,
        _ => NpmrcKey::Ignored,
    }
}

/// Whether the field of a `//…/:<field>` key (or a top-level key) carries
/// a credential.
pub fn is_credential_field(field: &str) -> bool {
    matches!(
        field,
        "_authToken" | "_auth" | "_password" | "username" | "tokenHelper" | "cert" | "key"
    )
}

#[cfg(test)]
mod tests;
