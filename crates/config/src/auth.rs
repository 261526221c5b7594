//! Registry credentials and the nerf-dart lookup (docs/settings.md §2.2).

use std::fmt;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use indexmap::IndexMap;
use url::Url;

use crate::ConfigError;

const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// All `//host/path/:<field>` settings, merged across sources (highest
/// priority first). `Debug` never prints values.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    /// Full ini key (`//host/path/:_authToken`) → value.
    raw: IndexMap<String, String>,
    /// `(uri prefix ending with "/", scope)` → `Authorization` header value.
    headers: IndexMap<(String, Option<String>), String>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("keys", &self.raw.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// A parsed `//host/path/:[@scope:]field` key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerRegistryKey {
    pub prefix: String,
    pub scope: Option<String>,
    pub field: String,
}

/// Splits `//host[:port]/path/:[@scope:]field`.
pub fn parse_per_registry_key(key: &str) -> Option<PerRegistryKey> {
    if !key.starts_with("//") {
        return None;
    }
    let (head, field) = key.rsplit_once(':')?;
    let (prefix, scope) = match head.rsplit_once(":@") {
        Some((prefix, scope))
            if !scope.contains('/') && !scope.contains(':') && !scope.is_empty() =>
        {
            (prefix, Some(format!("@{scope}")))
        }
        _ => (head, None),
    };
    let prefix = if prefix.ends_with('/') {
        prefix.to_owned()
    } else {
        format!("{prefix}/")
    };
    Some(PerRegistryKey {
        prefix,
        scope,
        field: field.to_owned(),
    })
}

impl Credentials {
    /// Builds the lookup table; `entries` are `(key, value)` pairs, highest
    /// priority first (a later duplicate key is ignored).
    pub fn from_entries(
        entries: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, ConfigError> {
        let mut raw = IndexMap::new();
        for (key, value) in entries {
            raw.entry(key).or_insert(value);
        }
        let mut fields: IndexMap<(String, Option<String>), IndexMap<String, String>> =
            IndexMap::new();
        for (key, value) in &raw {
            if let Some(parsed) = parse_per_registry_key(key) {
                fields
                    .entry((parsed.prefix, parsed.scope))
                    .or_default()
                    .insert(parsed.field, value.clone());
            }
        }
        let mut headers = IndexMap::new();
        for (target, fields) in fields {
            if let Some(header) = header_from_fields(&target.0, &fields)? {
                headers.insert(target, header);
            }
        }
        Ok(Credentials { raw, headers })
    }

    /// The raw value of a per-registry key such as `//host/:cafile`.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.raw.get(key).map(String::as_str)
    }

    /// Every per-registry key and its value, highest priority first.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.raw.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether no credential is configured.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// The `Authorization` header value for a request to `url`.
    pub fn authorization_for(&self, url: &str, package_name: Option<&str>) -> Option<String> {
        let parsed = Url::parse(url).ok()?;
        if let Some(header) = userinfo_header(&parsed) {
            return Some(header);
        }
        let host = parsed.host_str()?;
        let path = parsed.path();
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let dir = if dir.is_empty() { "/" } else { dir };
        let scope = package_name.and_then(crate::registry::scope_of);
        let mut hosts = Vec::with_capacity(2);
        match parsed.port() {
            Some(port) => {
                hosts.push(format!("//{host}:{port}"));
                hosts.push(format!("//{host}"));
            }
            None => hosts.push(format!("//{host}")),
        }
        for host in &hosts {
            if let Some(scope) = scope
                && let Some(header) = self.walk(host, dir, Some(scope))
            {
                return Some(header);
            }
            if let Some(header) = self.walk(host, dir, None) {
                return Some(header);
            }
        }
        None
    }

    fn walk(&self, host: &str, dir: &str, scope: Option<&str>) -> Option<String> {
        let mut dir = dir;
        loop {
            let key = (format!("{host}{dir}"), scope.map(str::to_owned));
            if let Some(header) = self.headers.get(&key) {
                return Some(header.clone());
            }
            if dir == "/" {
                return None;
            }
            let trimmed = &dir[..dir.len() - 1];
            dir = &trimmed[..trimmed.rfind('/').map_or(0, |i| i + 1)];
            if dir.is_empty() {
                return None;
            }
        }
    }
}

fn userinfo_header(url: &Url) -> Option<String> {
    let user = url.username();
    let password = url.password()?;
    let user = percent_decode(user);
    let password = percent_decode(password);
    Some(format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    ))
}

fn percent_decode(text: &str) -> String {
    url::form_urlencoded::parse(format!("x={}", text.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| text.to_owned())
}

fn header_from_fields(
    prefix: &str,
    fields: &IndexMap<String, String>,
) -> Result<Option<String>, ConfigError> {
    if let Some(token) = fields.get("_authToken").filter(|t| !t.is_empty()) {
        return Ok(Some(format!("Bearer {token}")));
    }
    if let Some(auth) = fields.get("_auth").filter(|t| !t.is_empty()) {
        let key = format!("{prefix}:_auth");
        let decoded = LENIENT
            .decode(auth.trim())
            .map_err(|_| ConfigError::AuthInvalidBase64 { key: key.clone() })?;
        if !decoded.contains(&b':') {
            return Err(ConfigError::AuthMissingSeparator { key });
        }
        return Ok(Some(format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(decoded)
        )));
    }
    if let (Some(user), Some(password)) = (fields.get("username"), fields.get("_password")) {
        let password = LENIENT
            .decode(password.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_else(|| password.clone());
        return Ok(Some(format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
